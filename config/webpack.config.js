/* Builds the admin app (ui/) and the embeddable widget (widget/) into dist/public. */
const Path = require('path');
const HtmlWebpackPlugin = require('html-webpack-plugin');
const MiniCssExtractPlugin = require('mini-css-extract-plugin');

const root = Path.resolve(__dirname, '..');

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
            { test: /\.css$/, use: [MiniCssExtractPlugin.loader, 'css-loader'] },
            { test: /\.(woff2?|ttf|eot|svg|png)$/, type: 'asset/resource' }
        ]
    },
    plugins: [
        new MiniCssExtractPlugin({ filename: 'assets/[name].[contenthash:10].css', chunkFilename: 'assets/[name].[contenthash:10].css' }),
        new HtmlWebpackPlugin({ template: Path.join(root, 'ui/index.html'), filename: 'index.html' })
    ],
    optimization: { splitChunks: { chunks: 'async' } },
    performance: { hints: false },
    devtool: false
});

const widget = (env, argv) => ({
    name: 'widget',
    mode: argv.mode || 'production',
    entry: {
        loader: Path.join(root, 'widget/src/loader.ts'),
        app: Path.join(root, 'widget/src/app.ts')
    },
    output: {
        path: Path.join(root, 'dist/public/widget'),
        filename: (chunk) => (chunk.chunk.name === 'loader' ? 'loader.js' : '[name].[contenthash:10].js'),
        chunkFilename: '[name].[contenthash:10].js',
        clean: true
    },
    resolve: { extensions: ['.ts', '.js'] },
    module: { rules: [tsRule(Path.join(root, 'widget/tsconfig.json'))] },
    plugins: [
        // manifest.json tells the server the hashed name of the app chunk to put in the loader.
        {
            apply(compiler) {
                compiler.hooks.thisCompilation.tap('widget-manifest', (compilation) => {
                    compilation.hooks.processAssets.tap({ name: 'widget-manifest', stage: 5000 }, () => {
                        const manifest = {};
                        for (const [name, chunkGroup] of compilation.namedChunkGroups) {
                            manifest[name] = chunkGroup.getFiles().filter((f) => f.endsWith('.js'));
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
