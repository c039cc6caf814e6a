// Lint: typescript-eslint's recommended rules over the server, CLI, tests, admin app and widget.
const tseslint = require('typescript-eslint');

module.exports = tseslint.config(
    { ignores: ['dist/**', 'node_modules/**', 'bench/node_modules/**', 'data/**', 'test-output/**', 'bin/loyalty-chat', 'config/webpack.config.js', 'eslint.config.js'] },
    ...tseslint.configs.recommended,
    {
        rules: {
            '@typescript-eslint/no-explicit-any': 'off',
            '@typescript-eslint/no-require-imports': 'off',
            '@typescript-eslint/no-unused-vars': ['error', { argsIgnorePattern: '^_', varsIgnorePattern: '^_', caughtErrors: 'none' }],
            'no-empty': ['error', { allowEmptyCatch: true }]
        }
    }
);
