/* Builds the admin app (ui/) and the embeddable widget (widget/) into dist/public. */
const Path = require('path');
const HtmlWebpackPlugin = require('html-webpack-plugin');
const MiniCssExtractPlugin = require('mini-css-extract-plugin');
const { IconPathsPlugin, ICONS_VERSION } = require('./icon-paths-plugin');

const root = Path.resolve(__dirname, '..');

/* Message catalogues (`<part>/locales/<lang>.json`): compiled at build time into modules of functions (issue 27). */
const messagesRule = {
    test: /[\\/]locales[\\/][^\\/]+\.json$/,
    exclude: /node_modules/,
    type: 'javascript/auto',
    use: { loader: Path.join(__dirname, 'messages-loader.js') }
};

function tsRule(configFile) {
    return {
        test: /\.tsx?$/,
        exclude: /node_modules/,
        use: { loader: 'ts-loader', options: { configFile, transpileOnly: true } }
    };
}

const admin = (env, argv) => ({
    name: 'admin',
    mode: argv.mode || 'production',
    entry: { main: Path.join(root, 'ui/src/main.tsx') },
    output: {
        path: Path.join(root, 'dist/public/admin'),
        publicPath: '/',
        filename: 'assets/[name].[contenthash:10].js',
        chunkFilename: 'assets/[name].[contenthash:10].js',
        assetModuleFilename: 'assets/[name].[contenthash:10][ext]',
        clean: true
    },
    resolve: { extensions: ['.tsx', '.ts', '.js'] },
    module: {
        rules: [
            tsRule(Path.join(root, 'ui/tsconfig.json')),
            messagesRule,
            { test: /\.css$/, use: [MiniCssExtractPlugin.loader, 'css-loader'] },
            { test: /\.(woff2?|ttf|eot|svg|png)$/, type: 'asset/resource' }
        ]
    },
    plugins: [
        new MiniCssExtractPlugin({ filename: 'assets/[name].[contenthash:10].css', chunkFilename: 'assets/[name].[contenthash:10].css' }),
        new HtmlWebpackPlugin({ template: Path.join(root, 'ui/index.html'), filename: 'index.html' }),
        // Icons one by one (ui/src/icons.ts): per-icon JSON files, and Blueprint's all-paths loaders left out.
        new IconPathsPlugin(),
        new (require('webpack').DefinePlugin)({ __ICONS_VERSION__: JSON.stringify(ICONS_VERSION) }),
        new (require('webpack').NormalModuleReplacementPlugin)(/paths-loaders[\\/](allPathsLoader|splitPathsBySizeLoader)(\.js)?$/,
            Path.join(root, 'ui/src/icon-loaders-stub.ts'))
    ],
    optimization: { splitChunks: { chunks: 'async' } },
    performance: { hints: false },
    devtool: false
});

// The widget: `loader` is what /widget-{subdomain}.js serves (store settings prepended by the server); it
// imports the chat panel (`panel` chunk, with the live chat module and the English texts) on the first interaction,
// from PUBLIC_URL/widget/, and at the same time the customer's language when it is another (`lang-<lang>` chunks).
const widget = (env, argv) => ({
    name: 'widget',
    mode: argv.mode || 'production',
    target: ['web', 'es2020'],
    entry: {
        loader: Path.join(root, 'widget/src/loader.ts')
    },
    output: {
        path: Path.join(root, 'dist/public/widget'),
        publicPath: '/widget/',
        uniqueName: 'loyaltyChatWidget',
        filename: 'loader.js',
        chunkFilename: '[name].[contenthash:10].js',
        // Chunks are ES modules fetched with the browser's own import() (CORS: the chunk route answers
        // access-control-allow-origin *), not webpack's script-tag (JSONP) loader: the loader is 0.4 KB gzip lighter,
        // which pays for the launcher's label in six languages within its 4 KB (issue 27).
        chunkFormat: 'module',
        chunkLoading: 'import',
        clean: true
    },
    resolve: { extensions: ['.tsx', '.ts', '.js'] },
    module: { rules: [tsRule(Path.join(root, 'widget/tsconfig.json')), messagesRule] },
    // One panel chunk, React and English included: one request on the first interaction (two, in parallel, for
    // another language).
    optimization: { splitChunks: false },
    plugins: [
        // manifest.json lists every chunk's files (bench/widget-size.ts reads it).
        {
            apply(compiler) {
                compiler.hooks.thisCompilation.tap('widget-manifest', (compilation) => {
                    compilation.hooks.processAssets.tap({ name: 'widget-manifest', stage: 5000 }, () => {
                        const manifest = {};
                        for (const chunk of compilation.chunks) {
                            manifest[chunk.name || chunk.id] = [...chunk.files].filter((f) => f.endsWith('.js'));
                        }
                        const { RawSource } = compiler.webpack.sources;
                        compilation.emitAsset('manifest.json', new RawSource(JSON.stringify(manifest, null, 2)));
                    });
                });
            }
        }
    ],
    performance: { hints: false },
    devtool: false
});

module.exports = [admin, widget];
