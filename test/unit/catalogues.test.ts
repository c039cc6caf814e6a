import * as Fs from 'fs';
import * as Os from 'os';
import * as Path from 'path';
import { expect } from 'chai';
import {
    argumentsOf, catalogueFolders, checkFolder, compileFunctions, compileModuleSource, readCatalogue, readFolder, serverCatalogues
} from '../../core/i18n/catalogues';
import { chooseLanguage, matchLanguage } from '../../core/shared/languages';
import { CODES, MESSAGES } from '../../plugins/loyalty/services/loyalty-service';
import { FILE_ERRORS, LIVECHAT_ERRORS, messageTooLong } from '../../plugins/livechat/errors';
import { AI_ERRORS } from '../../plugins/ai/services/ai-service';
import { CONVERSATION_ERRORS } from '../../plugins/conversation';
import { smsCodeText } from '../../plugins/loyalty/texts';

const ROOT = Path.resolve(__dirname, '..', '..', '..');
const WIDGET = Path.join(ROOT, 'widget', 'locales');

/** A copy of a locales folder to break on purpose. */
function copyOf(dir: string): string {
    const copy = Fs.mkdtempSync(Path.join(Os.tmpdir(), 'lc-locales-'));
    for (const file of Fs.readdirSync(dir)) {
        Fs.copyFileSync(Path.join(dir, file), Path.join(copy, file));
    }
    return copy;
}

function edit(file: string, change: (catalogue: Record<string, unknown>) => void): void {
    const value = JSON.parse(Fs.readFileSync(file, 'utf8'));
    change(value);
    Fs.writeFileSync(file, JSON.stringify(value, null, 2));
}

/** The webpack loader that compiles catalogues for the browser bundles (what `npm run build` runs). */
function buildCatalogue(file: string, query = ''): string {
    const loader = require(Path.join(ROOT, 'config', 'messages-loader.js')) as (this: unknown, source: string) => string;
    return loader.call({ resourcePath: file, resourceQuery: query, addDependency() { /* webpack watches it */ } }, Fs.readFileSync(file, 'utf8'));
}

describe('message catalogues (core/i18n, issue 27)', function () {
    const copies: string[] = [];
    after(() => copies.forEach((dir) => Fs.rmSync(dir, { recursive: true, force: true })));
    const brokenCopy = () => {
        const dir = copyOf(WIDGET);
        copies.push(dir);
        return dir;
    };

    it('finds the widget, admin app and server catalogues, and every one of them is complete', function () {
        const folders = catalogueFolders(ROOT).map((dir) => Path.relative(ROOT, dir));
        expect(folders).to.include.members(['widget/locales', 'ui/locales', 'plugins/loyalty/locales']);
        for (const dir of catalogueFolders(ROOT)) {
            expect(checkFolder(dir), dir).to.deep.equal([]);
        }
    });

    it('every catalogue says whether a person reviewed it (the Spanish widget one: not yet)', function () {
        for (const dir of catalogueFolders(ROOT)) {
            for (const catalogue of readFolder(dir)) {
                expect(catalogue.reviewed, catalogue.source).to.be.a('boolean');
            }
        }
        expect(readCatalogue(Path.join(WIDGET, 'es.json')).reviewed).to.equal(false);
        expect(readCatalogue(Path.join(WIDGET, 'en.json')).reviewed).to.equal(true);
    });

    it('ships the six launch languages in the widget, the staff app, the SMS and the reply mail, none reviewed yet but English', function () {
        for (const part of ['widget', 'ui', 'plugins/loyalty', 'plugins/livechat', 'plugins/ai']) {
            const catalogues = readFolder(Path.join(ROOT, part, 'locales'));
            expect(catalogues.map((c) => c.lang).sort(), part).to.deep.equal(['ar', 'de', 'en', 'es', 'fr', 'pt-BR']);
            for (const catalogue of catalogues) {
                expect(catalogue.reviewed, catalogue.source).to.equal(catalogue.lang === 'en');
            }
        }
    });

    it('fails on a key removed from a language (the check, and the build through the webpack loader)', function () {
        const dir = brokenCopy();
        edit(Path.join(dir, 'es.json'), (c) => delete c.greeting);
        const problems = checkFolder(dir);
        expect(problems).to.have.length(1);
        expect(problems[0]).to.match(/es\.json: "greeting" is missing \(en: "Hi! Welcome to \{store\} support/);
        expect(() => buildCatalogue(Path.join(dir, 'es.json'))).to.throw(/incomplete or invalid catalogue:[\s\S]*"greeting" is missing/);
        // The real one builds.
        expect(buildCatalogue(Path.join(WIDGET, 'es.json'))).to.include('greeting:');
    });

    it('fails on a key English does not have, and on a message whose arguments differ from English', function () {
        const dir = brokenCopy();
        edit(Path.join(dir, 'es.json'), (c) => {
            c.welcomeBack = '¡Hola de nuevo!';
            c.points = 'Tienes {puntos, number} puntos de fidelidad.';
            c.greeting = '¡Hola! Te damos la bienvenida al soporte de {store, number}.';
        });
        const problems = checkFolder(dir).join('\n');
        expect(problems).to.include('"welcomeBack" is not in en');
        expect(problems).to.include('"points" takes puntos (number), but en takes points (number)');
        expect(problems).to.include('"greeting" takes store (number), but en takes store (text)');
    });

    it('fails on a message that is not valid ICU, and on a catalogue without "@reviewed"', function () {
        const dir = brokenCopy();
        edit(Path.join(dir, 'es.json'), (c) => {
            c.points = 'Tienes {points, number puntos';
        });
        expect(checkFolder(dir).join('\n')).to.match(/"points" is not a valid ICU message/);
        edit(Path.join(dir, 'es.json'), (c) => delete c['@reviewed']);
        expect(checkFolder(dir).join('\n')).to.include('"@reviewed" is missing');
    });

    it('reads arguments and their kinds from ICU messages', function () {
        expect([...argumentsOf('{n, plural, one {# point} other {# points}} for {name} on {d, date, short}')])
            .to.deep.equal([['n', 'number'], ['name', 'text'], ['d', 'date']]);
        expect([...argumentsOf('{mode, select, a {x} other {y}}')]).to.deep.equal([['mode', 'text']]);
    });

    it('compiles to plain functions that import only the small runtime (no parser in the browser)', function () {
        const source = compileModuleSource(readCatalogue(Path.join(WIDGET, 'es.json')));
        const imports = source.match(/^import .* from "([^"]+)";$/gm) ?? [];
        expect(imports.length).to.be.greaterThan(0);
        for (const line of imports) {
            expect(line).to.match(/from "@messageformat\/runtime(\/lib\/(cardinals|formatters))?"/);
        }
        expect(source).to.not.match(/@messageformat\/(parser|core)/);
        // The loader's launcher texts only, and the panel's without them.
        expect(buildCatalogue(Path.join(WIDGET, 'en.json'), '?launcher')).to.include('launcherOpen').and.not.include('greeting');
        expect(buildCatalogue(Path.join(WIDGET, 'en.json'))).to.include('greeting').and.not.include('launcherOpen');
    });

    it('formats numbers and dates for the language', function () {
        const en = compileFunctions(readCatalogue(Path.join(WIDGET, 'en.json')));
        const es = compileFunctions(readCatalogue(Path.join(WIDGET, 'es.json')));
        expect(en.points({ points: 1250 })).to.equal('You have 1,250 loyalty points. Is there anything else I can help you with?');
        // CLDR (and the RAE) group Spanish numbers from five digits on: 1250, 12.500.
        expect(es.points({ points: 1250 })).to.equal('Tienes 1250 puntos de fidelidad. ¿Puedo ayudarte en algo más?');
        expect(es.points({ points: 12500 })).to.equal('Tienes 12.500 puntos de fidelidad. ¿Puedo ayudarte en algo más?');
        const t = new Date(2026, 0, 5, 14, 5).getTime();
        expect(en.messageTime({ time: t })).to.equal('2:05 PM');
        expect(es.messageTime({ time: t })).to.equal('14:05');
    });

    it('keeps SPEC §8 word for word in English', function () {
        const en = compileFunctions(readCatalogue(Path.join(WIDGET, 'en.json')));
        expect(en.notFound()).to.equal("I couldn't find that phone number in our system. You can sign up for our loyalty program in any store!");
        expect(en.verifyError({ message: 'Boom' })).to.equal('Error: Boom');
        expect(en.verifyNetwork()).to.equal("Sorry, I'm having trouble connecting. Please try again.");
        expect(en.wrongCode({ message: 'Invalid verification code' })).to.equal('Error: Invalid verification code. Please try entering the code again.');
        expect(en.codeNetwork()).to.equal("Sorry, I'm having trouble verifying the code. Please try again.");
        expect(en.liveUnavailable()).to.equal("I'm sorry, but our live support team is currently unavailable. Please try again later or continue with the pre-made questions for quick help.");
        expect(en.liveError()).to.equal("Sorry, I couldn't connect you to live support right now. Please try again later.");
        expect(en.fallback()).to.equal("I'm not sure about that one. Please choose one of the questions below, or type 'agent' to talk to a member of our team.");
        expect(en.launcherOpen({ store: 'Shop' })).to.equal('Open chat with Shop support');
        expect(en.launcherUnread({ label: en.launcherOpen({ store: 'Shop' }), count: 3 })).to.equal('Open chat with Shop support, 3 unread');
        expect(en.tooLong({ length: 2001, max: 2000, over: 1 })).to.equal('2,001 / 2,000 characters: please shorten your message by 1.');
    });

    it('has a text for every error code a customer may read, and English\'s is the server\'s message word for word', function () {
        const en = compileFunctions(readCatalogue(Path.join(WIDGET, 'en.json')));
        const server = [
            ...Object.entries(CODES).map(([kind, code]) => ({ code, message: MESSAGES[kind as keyof typeof CODES], args: undefined })),
            ...Object.values(LIVECHAT_ERRORS).map((e) => ({ ...e, args: undefined })),
            messageTooLong(2000),
            ...Object.values(AI_ERRORS).map((e) => ({ ...e, args: undefined })),
            ...Object.values(CONVERSATION_ERRORS).map((e) => ({ ...e, args: undefined })),
            // Photos and files (issue 29): the size refusal names the limit.
            ...Object.values(FILE_ERRORS).filter((e) => e !== FILE_ERRORS.size).map((e) => ({ ...e, args: undefined as Record<string, unknown> | undefined })),
            { code: FILE_ERRORS.size.code, message: FILE_ERRORS.size.message.replace('{mb}', '10'), args: { mb: 10 } }
        ];
        // Codes the widget answers with texts of its own (SPEC §8's not-found and connection texts), or retries silently.
        // Blank phones and codes never leave the widget.
        const shownOtherwise = ['loyalty.not_found', 'loyalty.provider_unavailable', 'livechat.too_fast', 'livechat.too_many_chats',
            'loyalty.phone_required', 'loyalty.code_required'];
        for (const { code, message, args } of server) {
            if (shownOtherwise.includes(code)) {
                continue;
            }
            expect(en, code).to.have.property(`error.${code}`);
            expect(en[`error.${code}`](args), code).to.equal(message);
        }
        const known = new Set(server.map((e) => e.code));
        for (const key of Object.keys(en).filter((k) => k.startsWith('error.'))) {
            expect(known.has(key.slice('error.'.length)), `${key}: no server code`).to.equal(true);
        }
    });

    it('the server catalogues: the SMS text takes a language and falls back to English', function () {
        expect(smsCodeText('en', { store: 'Demo Store', code: '012345', minutes: 10 }))
            .to.equal('Your Demo Store verification code is 012345. It expires in 10 minutes.');
        expect(smsCodeText('it-IT', { store: 'A {b} store', code: '1', minutes: 10 })).to.equal('Your A {b} store verification code is 1. It expires in 10 minutes.');
        // Each shipped language, with its own plural rules (Arabic has six categories: 1 and 2 are words, 3–10 'few').
        expect(smsCodeText('de-AT', { store: 'A {b} store', code: '1', minutes: 10 })).to.equal('Dein A {b} store Bestätigungscode lautet 1. Er läuft in 10 Minuten ab.');
        expect(smsCodeText('es-MX', { store: 'Tienda', code: '123456', minutes: 1 })).to.equal('Tu código de verificación de Tienda es 123456. Caduca en 1 minuto.');
        expect(smsCodeText('pt', { store: 'Loja', code: '123456', minutes: 10 })).to.equal('Seu código de verificação Loja é 123456. Ele expira em 10 minutos.');
        expect(smsCodeText('fr-CA', { store: 'Boutique', code: '123456', minutes: 10 })).to.equal('Votre code de vérification Boutique est 123456. Il expire dans 10 minutes.');
        expect(smsCodeText('ar', { store: 'متجر', code: '123456', minutes: 2 })).to.include('دقيقتين');
        expect(smsCodeText('ar', { store: 'متجر', code: '123456', minutes: 10 })).to.match(/ 10 دقائق/u);
        expect(smsCodeText('ar', { store: 'متجر', code: '123456', minutes: 15 })).to.match(/ 15 دقيقة/u);
        const broken = serverCatalogues({ en: { '@reviewed': true, hi: 'Hi {name}' }, es: { '@reviewed': false, hola: 'Hola' } });
        expect(() => broken('es')).to.throw(/"hi" is missing/);
        expect(broken('en').hi({ name: 'Ann' })).to.equal('Hi Ann');
    });
});

describe('choosing a language (core/shared/languages.ts)', function () {
    it('matches a tag to a shipped language: exact, then its language, then a regional form', function () {
        expect(matchLanguage('es-MX', ['en', 'es'])).to.equal('es');
        expect(matchLanguage('ES', ['en', 'es'])).to.equal('es');
        expect(matchLanguage('pt', ['en', 'pt-BR'])).to.equal('pt-BR');
        expect(matchLanguage('pt-BR', ['pt', 'pt-BR'])).to.equal('pt-BR');
        expect(matchLanguage('fr', ['en', 'es'])).to.equal(null);
        expect(matchLanguage('', ['en'])).to.equal(null);
        expect(matchLanguage(null, ['en'])).to.equal(null);
    });

    it('takes the first wish that is enabled (conversation, <html lang>, browser languages), else the store default', function () {
        expect(chooseLanguage([null, 'es', 'en-US'], ['en', 'es'], 'en')).to.equal('es');
        expect(chooseLanguage([null, '', 'fr-FR', 'es-419', 'en'], ['en', 'es'], 'en')).to.equal('es');
        expect(chooseLanguage(['en', 'es'], ['en', 'es'], 'es')).to.equal('en');
        expect(chooseLanguage(['de', 'fr'], ['en', 'es'], 'es')).to.equal('es');
        // A store that enabled only Spanish answers a German browser in Spanish, even with English as a stale default.
        expect(chooseLanguage(['de'], ['es'], 'en')).to.equal('es');
    });
});
