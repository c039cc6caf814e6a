import { expect } from 'chai';
import * as Fs from 'fs';
import * as Path from 'path';
import { ROOT } from '../../core/paths';

/**
 * The house's boundary rules (README, "How the house is built"), checked on the TypeScript sources:
 *
 *   1. core imports no plugin, and a plugin imports no other plugin's files (only core/, config/ and its own);
 *   2. a plugin touches only the tables it owns: the ones its own migrations create. Another plugin's table
 *      name may appear in no query, raw SQL or model of it, and its migrations alter only its own tables;
 *   3. a plugin uses only its own services and those of the plugins it declares in `dependencies`, as they
 *      are typed (no casts);
 *   4. route files (plugins/<name>/routes/) ask services, they do not query the database themselves;
 *   5. a plugin's request extensions (onPostAuth, onPreResponse…) run on its own routes only
 *      (`{ sandbox: 'plugin' }`); what applies to every route that uses a strategy is the scheme's own
 *      `response` method, and what applies to every route of the server lives in core/http.
 *
 * Plugins reach each other through declared services and events (DESIGN §4); the composition root
 * (plugins/index.ts) is the one file that knows them all.
 */

const PLUGINS_DIR = Path.join(ROOT, 'plugins');
const CORE_DIR = Path.join(ROOT, 'core');

function sources(dir: string): string[] {
    const out: string[] = [];
    for (const entry of Fs.readdirSync(dir, { withFileTypes: true })) {
        const full = Path.join(dir, entry.name);
        if (entry.isDirectory()) {
            if (entry.name !== 'node_modules' && entry.name !== 'locales') {
                out.push(...sources(full));
            }
        }
        else if (/\.tsx?$/.test(entry.name) && !entry.name.endsWith('.d.ts')) {
            out.push(full);
        }
    }
    return out;
}

const rel = (file: string) => Path.relative(ROOT, file);
const plugins = Fs.readdirSync(PLUGINS_DIR, { withFileTypes: true }).filter((d) => d.isDirectory()).map((d) => d.name).sort();
const pluginOf = (file: string): string | null => {
    const r = Path.relative(PLUGINS_DIR, file);
    return r.startsWith('..') || !r.includes(Path.sep) ? null : r.split(Path.sep)[0];
};
const isMigration = (file: string) => file.split(Path.sep).includes('migrations');
const code = (file: string) => Fs.readFileSync(file, 'utf8')
    // comments say what other plugins do; only code counts
    .replace(/\/\*[\s\S]*?\*\//g, '')
    .replace(/(^|[^:'"`])\/\/.*$/gm, '$1');

/** Relative imports (static, dynamic and require) of a source file, resolved to absolute paths. */
function importsOf(file: string): string[] {
    const text = code(file);
    const specs = [...text.matchAll(/(?:from\s+|import\s*\(\s*|require\s*\(\s*|import\s+)['"](\.[^'"]+)['"]/g)].map((m) => m[1]);
    return specs.map((s) => Path.resolve(Path.dirname(file), s));
}

/** table → owning plugin, from each plugin's migrations (createTable). */
function tableOwners(): Map<string, string> {
    const owners = new Map<string, string>();
    for (const plugin of plugins) {
        const dir = Path.join(PLUGINS_DIR, plugin, 'migrations');
        if (!Fs.existsSync(dir)) {
            continue;
        }
        for (const file of sources(dir)) {
            for (const m of code(file).matchAll(/createTable\(\s*['"]([a-z_]+)['"]/g)) {
                owners.set(m[1], plugin);
            }
        }
    }
    return owners;
}

/** service name → providing plugin, from `provide(server, 'name', …)`. */
function serviceProviders(): Map<string, string> {
    const providers = new Map<string, string>();
    for (const plugin of plugins) {
        for (const file of sources(Path.join(PLUGINS_DIR, plugin))) {
            for (const m of code(file).matchAll(/provide\(\s*server\s*,\s*['"](\w+)['"]/g)) {
                providers.set(m[1], plugin);
            }
        }
    }
    return providers;
}

/** The `dependencies: [...]` a plugin declares in its index.ts. */
function declaredDependencies(plugin: string): string[] {
    const index = Path.join(PLUGINS_DIR, plugin, 'index.ts');
    const m = Fs.existsSync(index) ? /dependencies:\s*\[([^\]]*)\]/.exec(code(index)) : null;
    return m ? [...m[1].matchAll(/['"]([\w-]+)['"]/g)].map((x) => x[1]) : [];
}

/** Every table name a piece of code names: string literals that are a table ('t', 't as x', 't.col') and SQL inside strings. */
function tablesNamed(text: string, tables: Set<string>): Set<string> {
    const found = new Set<string>();
    for (const m of text.matchAll(/(['"`])((?:\\.|(?!\1)[^\\\n])*)\1/g)) {
        const s = m[2];
        const head = /^([a-z_]+)(?:\s+as\s+\w+|\.[a-z_*]+)?$/i.exec(s.trim());
        if (head && tables.has(head[1])) {
            found.add(head[1]);
        }
        for (const sql of s.matchAll(/\b(?:from|join|into|update|table)\s+"?([a-z_]+)"?/gi)) {
            if (tables.has(sql[1])) {
                found.add(sql[1]);
            }
        }
    }
    return found;
}

/** The index of the parenthesis that closes the one at `open`. */
function closingParen(text: string, open: number): number {
    let depth = 0;
    for (let i = open; i < text.length; i += 1) {
        depth += text[i] === '(' ? 1 : text[i] === ')' ? -1 : 0;
        if (depth === 0) {
            return i;
        }
    }
    return text.length - 1;
}

export interface Violation {
    rule: 'import' | 'table' | 'service' | 'route-query' | 'extension';
    file: string;
    detail: string;
}

/** Every breach of the three rules in the sources as they are. */
export function boundaryViolations(): Violation[] {
    const out: Violation[] = [];
    for (const file of sources(CORE_DIR)) {
        for (const target of importsOf(file)) {
            if (!Path.relative(PLUGINS_DIR, target).startsWith('..')) {
                out.push({ rule: 'import', file: rel(file), detail: `core imports ${rel(target)}` });
            }
        }
    }
    const owners = tableOwners();
    const tables = new Set(owners.keys());
    const providers = serviceProviders();
    for (const plugin of plugins) {
        const allowedServices = new Set([plugin, ...declaredDependencies(plugin)]);
        for (const file of sources(Path.join(PLUGINS_DIR, plugin))) {
            for (const target of importsOf(file)) {
                const other = pluginOf(target);
                if (other && other !== plugin) {
                    out.push({ rule: 'import', file: rel(file), detail: `imports ${rel(target)} of plugin ${other}` });
                }
            }
            const text = code(file);
            if (file.split(Path.sep).includes('routes') && /\.db\b|\bdb\(|\bModel\.query\(|\w+Model\.query\(|\.knex\(/.test(text)) {
                out.push({ rule: 'route-query', file: rel(file), detail: 'queries the database in a route file' });
            }
            for (const m of text.matchAll(/\.ext\(\s*['"](on(?:Request|PreAuth|Credentials|PostAuth|PreHandler|PostHandler|PreResponse))['"]/g)) {
                const call = text.slice(m.index!, closingParen(text, m.index! + m[0].indexOf('(')) + 1);
                if (!/sandbox\s*:\s*['"]plugin['"]/.test(call)) {
                    out.push({ rule: 'extension', file: rel(file), detail: `${m[1]} runs on every route of the server` });
                }
            }
            if (isMigration(file)) {
                for (const m of text.matchAll(/(?:alterTable|\.table|dropTable|dropTableIfExists)\(\s*['"]([a-z_]+)['"]/g)) {
                    if (owners.get(m[1]) && owners.get(m[1]) !== plugin) {
                        out.push({ rule: 'table', file: rel(file), detail: `migration alters ${m[1]} of plugin ${owners.get(m[1])}` });
                    }
                }
                continue;
            }
            // Services['users'] is a service's type, not the users table
            for (const table of tablesNamed(text.replace(/\b[Ss]ervices\s*\[\s*['"]\w+['"]\s*\]/g, ''), tables)) {
                if (owners.get(table) !== plugin) {
                    out.push({ rule: 'table', file: rel(file), detail: `names table ${table} of plugin ${owners.get(table)}` });
                }
            }
            for (const m of text.matchAll(/\bservices\s*(?:\(\s*\)\s*)?(?:\?\.|\.)\s*(\w+)|\bservices\s*(?:\(\s*\)\s*)?\[\s*['"](\w+)['"]\s*\]/g)) {
                const service = m[1] ?? m[2];
                const provider = providers.get(service);
                if (provider && !allowedServices.has(provider)) {
                    out.push({ rule: 'service', file: rel(file), detail: `uses services.${service} of plugin ${provider}, not in its dependencies [${declaredDependencies(plugin).join(', ')}]` });
                }
            }
            for (const m of text.matchAll(/\bservices\s*(?:\(\s*\)\s*)?\??\.\s*(\w+)\s+as\s+(?!const\b)/g)) {
                out.push({ rule: 'service', file: rel(file), detail: `casts services.${m[1]} (type the service, optional members as optional)` });
            }
            for (const m of text.matchAll(/\{([^{}]*)\}\s*=\s*[\w.]*services\b(?:\s*\(\s*\))?/g)) {
                for (const name of m[1].split(',').map((x) => x.split(':')[0].trim()).filter(Boolean)) {
                    const provider = providers.get(name);
                    if (provider && !allowedServices.has(provider)) {
                        out.push({ rule: 'service', file: rel(file), detail: `uses services.${name} of plugin ${provider}, not in its dependencies [${declaredDependencies(plugin).join(', ')}]` });
                    }
                }
            }
        }
    }
    const seen = new Set<string>();
    return out.filter((v) => {
        const key = `${v.rule} ${v.file} ${v.detail}`;
        return seen.has(key) ? false : (seen.add(key), true);
    });
}

describe('the boundaries between plugins (DESIGN §4, README "How the house is built")', () => {
    const violations = boundaryViolations();
    const list = (rule: Violation['rule']) => violations.filter((v) => v.rule === rule).map((v) => `${v.file}: ${v.detail}`);

    it('finds the plugins, their tables and their services (the check sees the house)', () => {
        expect(plugins).to.include.members(['ai', 'analytics', 'auth', 'livechat', 'loyalty', 'questions', 'tenants']);
        expect(tableOwners().get('organizations')).to.equal('tenants');
        expect(tableOwners().get('chat_sessions')).to.equal('livechat');
        expect(serviceProviders().get('users')).to.equal('auth');
        expect(declaredDependencies('tenants')).to.deep.equal(['auth']);
    });

    it('has core import no plugin and no plugin import another plugin\'s files', () => {
        expect(list('import')).to.deep.equal([]);
    });

    it('has each plugin touch only the tables its own migrations create', () => {
        expect(list('table')).to.deep.equal([]);
    });

    it('has each plugin use only its own services and those of the plugins it declares in dependencies', () => {
        expect(list('service')).to.deep.equal([]);
    });

    it('has route files ask services instead of querying the database', () => {
        expect(list('route-query')).to.deep.equal([]);
    });

    it('has each plugin\'s request extensions run on its own routes only', () => {
        expect(list('extension')).to.deep.equal([]);
    });

    it('catches each kind of breach (the check can fail)', () => {
        const tables = new Set(['organizations', 'chat_sessions']);
        expect([...tablesNamed("db('organizations').where('id', 1)", tables)]).to.deep.equal(['organizations']);
        expect([...tablesNamed("db('chat_sessions as s')", tables)]).to.deep.equal(['chat_sessions']);
        expect([...tablesNamed("raw('select count(*) from chat_sessions where x')", tables)]).to.deep.equal(['chat_sessions']);
        expect([...tablesNamed("'organizations.id'", tables)]).to.deep.equal(['organizations']);
        expect([...tablesNamed("'organization' + 'organizations are' ", tables)]).to.deep.equal([]);
    });
});
