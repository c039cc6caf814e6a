/*
 * Emits every Blueprint icon's SVG paths as its own small JSON file, assets/icons/<version>/<16|20>/<name>.json,
 * which ui/src/icons.ts fetches one icon at a time: no icon font and no 100 KB all-paths chunk reach the browser.
 * The version segment is @blueprintjs/icons' version, so the files are immutable and cached for a year.
 */
const Fs = require('fs');
const Path = require('path');

const PACKAGE_DIR = Path.dirname(require.resolve('@blueprintjs/icons/package.json'));
const VERSION = require('@blueprintjs/icons/package.json').version;
const SIZES = [16, 20];

class IconPathsPlugin {
    apply(compiler) {
        const { RawSource } = compiler.webpack.sources;
        compiler.hooks.thisCompilation.tap('icon-paths', (compilation) => {
            compilation.hooks.processAssets.tap({ name: 'icon-paths', stage: compiler.webpack.Compilation.PROCESS_ASSETS_STAGE_ADDITIONAL }, () => {
                for (const size of SIZES) {
                    const dir = Path.join(PACKAGE_DIR, 'lib', 'cjs', 'generated', `${size}px`, 'paths');
                    for (const file of Fs.readdirSync(dir)) {
                        if (!file.endsWith('.js') || file === 'index.js') {
                            continue;
                        }
                        const paths = require(Path.join(dir, file)).default;
                        if (!Array.isArray(paths)) {
                            throw new Error(`icon-paths: ${file} (${size}px) has no path array`);
                        }
                        compilation.emitAsset(`assets/icons/${VERSION}/${size}/${file.slice(0, -3)}.json`,
                            new RawSource(JSON.stringify(paths)), { immutable: true, minimized: true });
                    }
                }
            });
        });
    }
}

IconPathsPlugin.VERSION = VERSION;
module.exports = { IconPathsPlugin, ICONS_VERSION: VERSION };
