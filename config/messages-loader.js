/*
 * webpack loader for message catalogues (`<part>/locales/<lang>.json`, issue 27): compiles the ICU messages at
 * build time into an ES module of plain functions (core/i18n/catalogues.ts, on @messageformat/core), so no message
 * parser reaches the browser. A catalogue other than English is checked against English first: a missing key, an
 * extra key or a message taking other arguments fails the build.
 *
 * `?rating` gives only the `rating.*` texts of the widget (issue 28), `?files` its `files.*` texts (issue 29), `?offline`
 * its `offline.*` texts (leave a message), `?email` its `email.*` texts (an email given in a live chat, issue 28): the rating
 * after a chat, attaching files, leaving a message and leaving an email are feature chunks of their own (DESIGN §10), which
 * carry their texts in every language; every other module of the widget's catalogues leaves them out.
 *
 * `?launcher` gives only `launcherOpen` (the one text the widget's loader shows on the merchant page before the panel
 * loads: with six languages every byte of it counts against the loader's 4 KB); without it `launcherOpen` is left out
 * and the launcher's other texts (its label while open, with an unread count) come with the panel, which alone
 * needs them.
 *
 * English's `error.<code>` texts are left out of its module: the server's English `message` beside each code is that
 * very text (test/unit/catalogues.test.ts keeps them equal word for word), and the widget shows the server's message
 * for a code its catalogue lacks, so English customers read the same words without the panel carrying them twice.
 * They stay in en.json as the reference every other language is checked against.
 *
 * The compiler comes from dist/ (npm run build compiles the server, core/ included, before webpack runs).
 */
const Path = require('path');

/** The widget's feature chunks that carry their own texts (`<name>.*` keys, `?<name>` modules). */
const FEATURES = ['rating', 'files', 'offline', 'email'];

let catalogues;
function compiler() {
    if (!catalogues) {
        try {
            catalogues = require(Path.join(__dirname, '..', 'dist', 'core', 'i18n', 'catalogues.js'));
        }
        catch (err) {
            throw new Error(`the message compiler is not built (run npm run build:server first): ${err.message}`);
        }
    }
    return catalogues;
}

module.exports = function messagesLoader(source) {
    const { toCatalogue, readCatalogue, checkCatalogue, compileModuleSource, REFERENCE } = compiler();
    const lang = Path.basename(this.resourcePath, '.json');
    const catalogue = toCatalogue(lang, JSON.parse(source), this.resourcePath);
    let reference;
    if (lang !== REFERENCE) {
        const englishFile = Path.join(Path.dirname(this.resourcePath), `${REFERENCE}.json`);
        this.addDependency(englishFile);
        reference = readCatalogue(englishFile);
    }
    const problems = checkCatalogue(catalogue, reference);
    if (problems.length) {
        throw new Error(`incomplete or invalid catalogue:\n  ${problems.join('\n  ')}`);
    }
    const launcher = /[?&]launcher\b/.test(this.resourceQuery || '');
    const feature = FEATURES.find((name) => new RegExp(`[?&]${name}\\b`).test(this.resourceQuery || ''));
    const serverText = (key) => lang === REFERENCE && key.startsWith('error.');
    if (feature) {
        return compileModuleSource(catalogue, (key) => key.startsWith(`${feature}.`));
    }
    const widget = Path.basename(Path.dirname(Path.dirname(this.resourcePath))) === 'widget';
    const featureText = (key) => widget && FEATURES.some((name) => key.startsWith(`${name}.`));
    return compileModuleSource(catalogue, (key) => (key === 'launcherOpen') === launcher && !featureText(key) && !serverText(key));
};
