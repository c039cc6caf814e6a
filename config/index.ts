import * as Fs from 'fs';
import * as Path from 'path';
import * as Crypto from 'crypto';
import Joi from 'joi';

const JWT_SECRET_HINT = '; make one with `openssl rand -base64 48`';

const bool = Joi.boolean().truthy('1', 'yes', 'on').falsy('0', 'no', 'off', '');

/**
 * Every setting of loyalty-chat, once: the joi schema of each environment variable (or CONFIG_FILE key),
 * typed where its values are a closed set. `Settings` and `Config` are derived from it, never written by hand.
 */
export const settings = {
    NODE_ENV: Joi.string<'development' | 'production' | 'test'>().valid('development', 'production', 'test').default('development'),
    PORT: Joi.number().integer().min(0).max(65535).default(3000),
    HOST: Joi.string().hostname().default('0.0.0.0'),
    PUBLIC_URL: Joi.string().uri({ scheme: ['http', 'https'] }).allow('').default(''),
    SUPPORT_EMAIL: Joi.string().trim().email({ tlds: false }).allow('').default(''),
    LOG_LEVEL: Joi.string<'fatal' | 'error' | 'warn' | 'info' | 'debug' | 'trace' | 'silent'>().valid('fatal', 'error', 'warn', 'info', 'debug', 'trace', 'silent').default('info'),
    DATA_DIR: Joi.string().default('./data'),
    DATABASE_URL: Joi.string()
        .pattern(/^(postgres|postgresql):\/\/.+|^sqlite:.+/)
        .allow('')
        .default('')
        .messages({ 'string.pattern.base': '{{#label}} must be postgres://… or sqlite:PATH' }),
    DATABASE_SCHEMA: Joi.string().pattern(/^[a-z_][a-z0-9_]{0,62}$/).allow('').default(''),
    REDIS_URL: Joi.string().uri({ scheme: ['redis', 'rediss'] }).allow('').default(''),
    REDIS_PREFIX: Joi.string().pattern(/^[A-Za-z0-9:_-]+$/).default('lc'),
    JWT_SECRET: Joi.string().min(32).allow('').default('')
        .messages({ 'string.min': `{{#label}} must be at least 32 characters${JWT_SECRET_HINT}` }),
    NODE_ID: Joi.string().pattern(/^[A-Za-z0-9_-]+$/).allow('').default(''),
    TRUST_PROXY: bool.default(false),
    SMS_PROVIDER: Joi.string<'outbox' | 'twilio'>().valid('outbox', 'twilio').default('outbox'),
    TWILIO_ACCOUNT_SID: Joi.string().allow('').default(''),
    TWILIO_AUTH_TOKEN: Joi.string().allow('').default(''),
    TWILIO_FROM: Joi.string().allow('').default(''),
    TWILIO_BASE_URL: Joi.string().uri({ scheme: ['http', 'https'] }).default('https://api.twilio.com'),
    LOYALTY_PROVIDER: Joi.string<'builtin' | 'alpineiq'>().valid('builtin', 'alpineiq').default('builtin'),
    ALPINEIQ_API_KEY: Joi.string().allow('').default(''),
    ALPINEIQ_UID: Joi.string().allow('').default(''),
    ALPINEIQ_BASE_URL: Joi.string().uri({ scheme: ['http', 'https'] }).default('https://lab.alpineiq.com'),
    ALPINEIQ_TIMEOUT_MS: Joi.number().integer().min(100).max(5000).default(4000),
    LOYALTY_CACHE_SECONDS: Joi.number().integer().min(0).max(60).default(30),
    MAIL_TRANSPORT: Joi.string<'outbox' | 'smtp'>().valid('outbox', 'smtp').default('outbox'),
    SMTP_URL: Joi.string().uri({ scheme: ['smtp', 'smtps'] }).allow('').default(''),
    MAIL_FROM: Joi.string().default('loyalty-chat <no-reply@localhost>'),
    AI_PROVIDER: Joi.string<'builtin' | 'openai'>().valid('builtin', 'openai').default('builtin'),
    OPENAI_BASE_URL: Joi.string().uri({ scheme: ['http', 'https'] }).default('https://api.openai.com/v1'),
    OPENAI_API_KEY: Joi.string().allow('').default(''),
    OPENAI_MODEL: Joi.string().default('gpt-4o-mini'),
    OPENAI_TIMEOUT_MS: Joi.number().integer().min(100).max(120000).default(15000),
    OPENAI_MAX_TOOL_ROUNDS: Joi.number().integer().min(1).max(10).default(3),
    AI_QUESTIONS_PER_STORE_HOUR: Joi.number().integer().min(1).max(10000000).default(600),
    AI_QUESTIONS_PER_STORE_DAY: Joi.number().integer().min(1).max(100000000).default(5000),
    // Fractions are allowed so tests can use short values.
    AI_RESOLVED_AFTER_MINUTES: Joi.number().min(0.001).max(10080).default(10),
    AI_MEANINGS: Joi.string<'on' | 'off'>().valid('on', 'off').default('on'),
    AI_MEANINGS_WAIT_MS: Joi.number().integer().min(0).max(600000).default(2000),
    // Fractions are allowed so tests can use short values.
    CUSTOMER_VERIFIED_MINUTES: Joi.number().min(0.001).max(240).default(30),
    CHAT_WAIT_TIMEOUT_SECONDS: Joi.number().integer().min(10).max(86400).default(600),
    CHAT_MAX_MESSAGE_LENGTH: Joi.number().integer().min(1).max(10000).default(2000),
    // Fractions are allowed so tests can use short values.
    CHAT_DISCONNECT_GRACE_SECONDS: Joi.number().min(0.1).max(3600).default(30),
    CHAT_ABANDON_SECONDS: Joi.number().min(0.1).max(86400).default(300),
    CHAT_SEND_WINDOW_SECONDS: Joi.number().min(0.1).max(3600).default(10),
    CHAT_TYPING_THROTTLE_MS: Joi.number().integer().min(10).max(60000).default(2000),
    // Agent presence (issue 23): fractions are allowed so tests can use short values.
    AGENT_AWAY_GRACE_SECONDS: Joi.number().min(0.1).max(86400).default(60),
    AGENT_IDLE_MINUTES: Joi.number().min(0.001).max(1440).default(15),
    // Routing (issue 26): how long an agent has to accept a chat offered to them; fractions for tests.
    CHAT_OFFER_SECONDS: Joi.number().min(0.1).max(3600).default(30),
    // The mailed link to rate a chat (issue 28): how long it opens the rate page.
    RATING_LINK_DAYS: Joi.number().min(0.001).max(365).default(7),
    OFFLINE_MESSAGES_PER_STORE_HOUR: Joi.number().integer().min(1).max(100000).default(30),
    TEST_EMAILS_PER_STORE_HOUR: Joi.number().integer().min(1).max(1000).default(5),
    // Attachments in live chat (issue 29): size per file, the window after which an upload never sent is swept, how
    // long a signed file URL lives, the largest image (pixels) decoded, and uploads per customer chat and per store.
    FILES_MAX_MB: Joi.number().min(0.01).max(100).default(10),
    FILES_UNSENT_MINUTES: Joi.number().min(0.001).max(10080).default(60),
    FILES_URL_SECONDS: Joi.number().min(0.1).max(86400).default(300),
    FILES_MAX_PIXELS: Joi.number().integer().min(1).max(1000000000).default(50000000),
    FILES_PER_CHAT_HOUR: Joi.number().integer().min(1).max(100000).default(60),
    FILES_PER_STORE_HOUR: Joi.number().integer().min(1).max(10000000).default(2000),
    // A shared directory for the files of several nodes (default DATA_DIR/files), or an S3-compatible bucket.
    FILES_DIR: Joi.string().allow('').default(''),
    S3_BUCKET: Joi.string().allow('').default(''),
    S3_ENDPOINT: Joi.string().uri({ scheme: ['http', 'https'] }).allow('').default(''),
    S3_REGION: Joi.string().allow('').default('us-east-1'),
    S3_ACCESS_KEY_ID: Joi.string().allow('').default(''),
    S3_SECRET_ACCESS_KEY: Joi.string().allow('').default(''),
    ANALYTICS_RETENTION_DAYS: Joi.number().integer().min(1).max(36500).default(400),
    WS_MAX_CONNECTIONS_PER_IP: Joi.number().integer().min(1).max(1000000).default(100),
    WS_MAX_CONNECTIONS_PER_TOKEN: Joi.number().integer().min(1).max(10000).default(10),
    WS_MAX_FRAMES_PER_SECOND: Joi.number().integer().min(1).max(10000).default(50),
    WS_REVOCATION_CHECK_MS: Joi.number().integer().min(50).max(60000).default(2000),
    // Default: true outside production, false in production (see loadConfig).
    SEED_DEMO_ON_EMPTY: bool,
    // Default: true in production, false otherwise (tests and development call local fake servers).
    OUTBOUND_REFUSE_PRIVATE: bool,
    // Tests only: cheap password hashes (core/auth/passwords.ts); refused unless NODE_ENV=test.
    PASSWORD_HASH_COST: Joi.string<'owasp' | 'test'>().valid('owasp', 'test').default('owasp')
};

/** The raw variables as the schema types them. */
export type Settings = { [K in keyof typeof settings]: (typeof settings)[K] extends Joi.AnySchema<infer T> ? T : never };

/** The joi schema of the raw variables: names are the environment variable names. */
export const envSchema = Joi.object(settings).unknown(true);

export class ConfigError extends Error {
    constructor(message: string) {
        super(message);
        this.name = 'ConfigError';
    }
}

const KNOWN = Object.keys(envSchema.describe().keys);

function readFileSettings(file: string): Record<string, unknown> {
    let text: string;
    try {
        text = Fs.readFileSync(file, 'utf8');
    }
    catch (err) {
        throw new ConfigError(`CONFIG_FILE ${file} cannot be read: ${(err as Error).message}`);
    }
    try {
        const parsed = JSON.parse(text);
        if (!parsed || typeof parsed !== 'object' || Array.isArray(parsed)) {
            throw new Error('it must hold a JSON object');
        }
        return parsed as Record<string, unknown>;
    }
    catch (err) {
        throw new ConfigError(`CONFIG_FILE ${file} is not valid JSON: ${(err as Error).message}`);
    }
}

function secretFile(dataDir: string): string {
    return Path.join(dataDir, 'jwt-secret');
}

function ownedByUs(stat: Fs.Stats): boolean {
    return typeof process.getuid === 'function' && stat.uid === process.getuid();
}

/**
 * Makes `dir` a private folder: created 0700 when missing, and tightened to 0700 when it exists with a
 * wider mode and belongs to this process's user. A sticky folder (such as /tmp) is shared on purpose and
 * is left alone; the files put in it are 0600 anyway.
 */
export function ensurePrivateDir(dir: string): void {
    let stat: Fs.Stats | null = null;
    try {
        stat = Fs.statSync(dir);
    }
    catch (err) {
        if ((err as NodeJS.ErrnoException).code !== 'ENOENT') {
            throw err;
        }
    }
    if (!stat) {
        Fs.mkdirSync(dir, { recursive: true, mode: 0o700 });
        Fs.chmodSync(dir, 0o700);
        return;
    }
    if (stat.isDirectory() && (stat.mode & 0o077) !== 0 && (stat.mode & 0o1000) === 0 && ownedByUs(stat)) {
        Fs.chmodSync(dir, 0o700);
    }
}

/** Tightens an existing file of this process's user to 0600 (owner read/write only); a missing file is fine. */
export function ensurePrivateFile(file: string): void {
    let stat: Fs.Stats;
    try {
        stat = Fs.statSync(file);
    }
    catch {
        return;
    }
    if (stat.isFile() && (stat.mode & 0o177) !== 0 && ownedByUs(stat)) {
        Fs.chmodSync(file, 0o600);
    }
}

function loadOrCreateSecret(dataDir: string): string {
    const file = secretFile(dataDir);
    ensurePrivateDir(dataDir);
    try {
        const existing = Fs.readFileSync(file, 'utf8').trim();
        if (existing.length >= 32) {
            ensurePrivateFile(file);
            return existing;
        }
    }
    catch { /* created below */ }
    const secret = Crypto.randomBytes(48).toString('base64url');
    Fs.writeFileSync(file, secret + '\n', { mode: 0o600 });
    Fs.chmodSync(file, 0o600);
    return secret;
}

/** Shannon entropy of the symbols, in bits per symbol. */
function bitsPerSymbol(symbols: ArrayLike<number>): number {
    const counts = new Map<number, number>();
    for (let i = 0; i < symbols.length; i++) {
        counts.set(symbols[i], (counts.get(symbols[i]) ?? 0) + 1);
    }
    let bits = 0;
    for (const count of counts.values()) {
        const p = count / symbols.length;
        bits -= p * Math.log2(p);
    }
    return bits;
}

/**
 * How many characters of `text` are new: a greedy LZ77-style parse in which a run of 4 or more characters
 * that already occurred earlier (overlapping allowed) counts as nothing. A pattern repeated, with or without
 * something around it, counts once.
 */
function novelCharacters(text: string): number {
    const MIN_MATCH = 4;
    let novel = 0;
    let i = 0;
    while (i < text.length) {
        let longest = 0;
        for (let start = 0; start < i; start++) {
            let length = 0;
            while (i + length < text.length && text[start + length] === text[i + length]) {
                length++;
            }
            longest = Math.max(longest, length);
        }
        if (longest >= MIN_MATCH) {
            i += longest;
        }
        else {
            novel++;
            i++;
        }
    }
    return novel;
}

/**
 * A rough lower estimate of the entropy of a secret, in bits: the Shannon entropy per character (of the
 * characters, and of the steps between neighbouring character codes, whichever is lower, so that
 * `abcdef…` and `0123…` sequences count as little as `aaaa…`) times the number of characters that are not
 * a repeat of an earlier run. Random keys (hex of 32 bytes, base64 of 48) estimate at 200+ bits.
 */
export function estimateSecretEntropy(secret: string): number {
    // The first 512 characters are plenty to reach the minimum, and keep the parse quick.
    const text = Array.from(secret).slice(0, 512).join('');
    if (text.length < 2) {
        return 0;
    }
    const codes = Array.from(text, (c) => c.codePointAt(0)!);
    const steps = codes.slice(1).map((code, i) => code - codes[i]);
    return Math.min(bitsPerSymbol(codes), bitsPerSymbol(steps)) * novelCharacters(text);
}

/** The least estimated entropy a JWT_SECRET must have. */
export const MIN_SECRET_BITS = 128;

/**
 * The address of a server bound to `host`:`port` as seen from its own machine: http://localhost:PORT when it
 * listens on every interface, else http://HOST:PORT. Used where there is no PUBLIC_URL and no request.
 */
export function localBaseUrl(host: string, port: number | string): string {
    if (host === '0.0.0.0' || host === '::' || host === '') {
        return `http://localhost:${port}`;
    }
    return `http://${host.includes(':') ? `[${host}]` : host}:${port}`;
}

/**
 * Validates the environment (plus CONFIG_FILE) and returns the typed config. Throws ConfigError naming
 * the variable and what is allowed.
 */
export function loadConfig(environment: NodeJS.ProcessEnv = process.env, overrides: Record<string, unknown> = {}): Config {
    const fromFile = environment.CONFIG_FILE ? readFileSettings(environment.CONFIG_FILE) : {};
    const raw: Record<string, unknown> = { ...fromFile };
    for (const key of KNOWN) {
        if (environment[key] !== undefined) {
            raw[key] = environment[key];
        }
    }
    Object.assign(raw, overrides);

    const { error, value } = envSchema.validate(raw, { abortEarly: false, convert: true });
    if (error) {
        throw new ConfigError(`Invalid configuration: ${error.details.map((d) => d.message).join('; ')}`);
    }
    const v = value as Settings;
    const production = v.NODE_ENV === 'production';
    const dataDir = Path.resolve(v.DATA_DIR);

    let database: DatabaseSettings;
    if (!v.DATABASE_URL) {
        database = { client: 'sqlite', filename: Path.join(dataDir, 'loyalty-chat.sqlite') };
    }
    else if (v.DATABASE_URL.startsWith('sqlite:')) {
        const file = v.DATABASE_URL.slice('sqlite:'.length);
        database = { client: 'sqlite', filename: file === ':memory:' ? file : Path.resolve(file) };
    }
    else {
        database = { client: 'postgres', url: v.DATABASE_URL, schema: v.DATABASE_SCHEMA || null };
    }

    let jwtSecret = v.JWT_SECRET as string;
    let jwtSecretGenerated = false;
    if (jwtSecret) {
        const bits = estimateSecretEntropy(jwtSecret);
        if (bits < MIN_SECRET_BITS) {
            throw new ConfigError(`Invalid configuration: "JWT_SECRET" is too predictable (about ${Math.floor(bits)} bits of entropy, ` +
                `at least ${MIN_SECRET_BITS} needed: no repeated patterns or sequences)${JWT_SECRET_HINT}`);
        }
    }
    else {
        if (production) {
            throw new ConfigError(`Invalid configuration: "JWT_SECRET" is required when NODE_ENV=production (at least 32 random characters)${JWT_SECRET_HINT}`);
        }
        jwtSecret = loadOrCreateSecret(dataDir);
        jwtSecretGenerated = true;
    }

    if (v.PASSWORD_HASH_COST === 'test' && v.NODE_ENV !== 'test') {
        throw new ConfigError('Invalid configuration: "PASSWORD_HASH_COST" may be "test" only when NODE_ENV=test');
    }
    if (production) {
        if (v.SMS_PROVIDER === 'twilio' && (!v.TWILIO_ACCOUNT_SID || !v.TWILIO_AUTH_TOKEN || !v.TWILIO_FROM)) {
            throw new ConfigError('Invalid configuration: "TWILIO_ACCOUNT_SID", "TWILIO_AUTH_TOKEN" and "TWILIO_FROM" are required when SMS_PROVIDER=twilio');
        }
        if (v.LOYALTY_PROVIDER === 'alpineiq' && !v.ALPINEIQ_API_KEY) {
            throw new ConfigError('Invalid configuration: "ALPINEIQ_API_KEY" is required when LOYALTY_PROVIDER=alpineiq');
        }
        if (v.MAIL_TRANSPORT === 'smtp' && !v.SMTP_URL) {
            throw new ConfigError('Invalid configuration: "SMTP_URL" is required when MAIL_TRANSPORT=smtp');
        }
        if (v.AI_PROVIDER === 'openai' && !v.OPENAI_API_KEY) {
            throw new ConfigError('Invalid configuration: "OPENAI_API_KEY" is required when AI_PROVIDER=openai');
        }
    }

    return toConfig(v, { dataDir, database, jwtSecret, jwtSecretGenerated, production });
}

/** Where the database is: the embedded SQLite file, or a PostgreSQL URL and schema. */
export type DatabaseSettings = { client: 'sqlite'; filename: string } | { client: 'postgres'; url: string; schema: string | null };

/** The typed configuration the server reads (its type, Config, is this function's result type). */
function toConfig(v: Settings, derived: { dataDir: string; database: DatabaseSettings; jwtSecret: string; jwtSecretGenerated: boolean; production: boolean }) {
    const { dataDir, database, jwtSecret, jwtSecretGenerated, production } = derived;
    return {
        env: v.NODE_ENV,
        port: v.PORT,
        host: v.HOST,
        publicUrl: v.PUBLIC_URL ? String(v.PUBLIC_URL).replace(/\/+$/, '') : null,
        /** Where organization users without an account write ("Contact your administrator" on /org-login); null hides the link. */
        supportEmail: v.SUPPORT_EMAIL || null,
        logLevel: v.LOG_LEVEL,
        dataDir,
        database,
        redisUrl: v.REDIS_URL || null,
        redisPrefix: v.REDIS_PREFIX,
        jwtSecret,
        jwtSecretGenerated,
        nodeId: v.NODE_ID || `${require('os').hostname()}-${process.pid}`,
        trustProxy: v.TRUST_PROXY,
        /** How long after a successful SMS code check a customer token may read the verified phone's data. */
        customerVerifiedMinutes: v.CUSTOMER_VERIFIED_MINUTES,
        sms: {
            provider: v.SMS_PROVIDER,
            twilio: {
                accountSid: v.TWILIO_ACCOUNT_SID || null,
                authToken: v.TWILIO_AUTH_TOKEN || null,
                from: v.TWILIO_FROM || null,
                baseUrl: String(v.TWILIO_BASE_URL).replace(/\/+$/, '')
            }
        },
        loyalty: {
            provider: v.LOYALTY_PROVIDER,
            alpineiq: {
                apiKey: v.ALPINEIQ_API_KEY || null,
                uid: v.ALPINEIQ_UID || null,
                baseUrl: String(v.ALPINEIQ_BASE_URL).replace(/\/+$/, ''),
                timeoutMs: v.ALPINEIQ_TIMEOUT_MS
            },
            cacheSeconds: v.LOYALTY_CACHE_SECONDS
        },
        mail: { transport: v.MAIL_TRANSPORT, smtpUrl: v.SMTP_URL || null, from: v.MAIL_FROM },
        ai: {
            provider: v.AI_PROVIDER,
            openai: { baseUrl: String(v.OPENAI_BASE_URL).replace(/\/+$/, ''), apiKey: v.OPENAI_API_KEY || null, model: v.OPENAI_MODEL,
                timeoutMs: v.OPENAI_TIMEOUT_MS, maxToolRounds: v.OPENAI_MAX_TOOL_ROUNDS },
            questionsPerStoreHour: v.AI_QUESTIONS_PER_STORE_HOUR,
            questionsPerStoreDay: v.AI_QUESTIONS_PER_STORE_DAY,
            /** An AI answer whose customer asked nothing more this long (and was not handed off) is resolved. */
            resolvedAfterMinutes: v.AI_RESOLVED_AFTER_MINUTES,
            /** Whole-sentence meanings for the built-in retrieval (plugins/ai/services/meanings.ts); off: words alone. */
            meanings: v.AI_MEANINGS === 'on',
            /** How long a question waits for its store's changed sources to be encoded before it is read by words alone. */
            meaningsWaitMs: v.AI_MEANINGS_WAIT_MS
        },
        chat: { waitTimeoutSeconds: v.CHAT_WAIT_TIMEOUT_SECONDS, maxMessageLength: v.CHAT_MAX_MESSAGE_LENGTH,
            disconnectGraceSeconds: v.CHAT_DISCONNECT_GRACE_SECONDS, abandonSeconds: v.CHAT_ABANDON_SECONDS,
            sendWindowMs: Math.round(v.CHAT_SEND_WINDOW_SECONDS * 1000), typingThrottleMs: v.CHAT_TYPING_THROTTLE_MS,
            offlineMessagesPerStoreHour: v.OFFLINE_MESSAGES_PER_STORE_HOUR, testEmailsPerStoreHour: v.TEST_EMAILS_PER_STORE_HOUR,
            agentAwayGraceMs: Math.round(v.AGENT_AWAY_GRACE_SECONDS * 1000), agentIdleMs: Math.round(v.AGENT_IDLE_MINUTES * 60_000),
            offerMs: Math.round(v.CHAT_OFFER_SECONDS * 1000), ratingLinkSeconds: Math.round(v.RATING_LINK_DAYS * 86400) },
        files: {
            maxBytes: Math.round(v.FILES_MAX_MB * 1024 * 1024), perMessage: 5,
            unsentMs: Math.round(v.FILES_UNSENT_MINUTES * 60_000), urlMs: Math.round(v.FILES_URL_SECONDS * 1000),
            maxPixels: v.FILES_MAX_PIXELS, perChatHour: v.FILES_PER_CHAT_HOUR, perStoreHour: v.FILES_PER_STORE_HOUR,
            dir: v.FILES_DIR ? Path.resolve(v.FILES_DIR) : Path.join(dataDir, 'files'),
            s3: v.S3_BUCKET ? { bucket: v.S3_BUCKET, endpoint: v.S3_ENDPOINT || null, region: v.S3_REGION || 'us-east-1',
                accessKeyId: v.S3_ACCESS_KEY_ID || null, secretAccessKey: v.S3_SECRET_ACCESS_KEY || null } : null
        },
        analytics: { retentionDays: v.ANALYTICS_RETENTION_DAYS },
        sockets: { maxPerIp: v.WS_MAX_CONNECTIONS_PER_IP, maxPerToken: v.WS_MAX_CONNECTIONS_PER_TOKEN, maxFramesPerSecond: v.WS_MAX_FRAMES_PER_SECOND,
            revocationCheckMs: v.WS_REVOCATION_CHECK_MS },
        seedDemoOnEmpty: v.SEED_DEMO_ON_EMPTY ?? !production,
        /** Outbound calls to staff-configured URLs (core/http/outbound.ts). */
        outbound: { refusePrivate: v.OUTBOUND_REFUSE_PRIVATE ?? production },
        passwordHashCost: v.PASSWORD_HASH_COST
    };
}

/** Every setting of loyalty-chat as the server reads it: derived from the schema above through toConfig. */
export type Config = ReturnType<typeof toConfig>;
