import * as Crypto from 'crypto';

/** The format tag of a sealed value; a later scheme gets a new one. */
const VERSION = 'v1';

/**
 * Secrets stored in the database (a loyalty provider's API key, say) sealed with AES-256-GCM. The key is
 * derived with HKDF-SHA256 from the server secret (JWT_SECRET) and a purpose, so each purpose has its own key
 * and the database alone never reveals a secret. The additional data binds a sealed value to its row (the
 * organization id): a value copied to another organization's row does not open.
 *
 * A sealed value is `v1.<iv>.<ciphertext>.<tag>` (base64url; a random 12-byte IV each time).
 */
export class SecretBox {
    private readonly key: Buffer;

    constructor(serverSecret: string, purpose: string) {
        if (!serverSecret) {
            throw new Error('SecretBox needs the server secret');
        }
        this.key = Buffer.from(Crypto.hkdfSync('sha256', serverSecret, 'loyalty-chat secret-box', `${purpose} ${VERSION}`, 32));
    }

    seal(plaintext: string, aad: string): string {
        const iv = Crypto.randomBytes(12);
        const cipher = Crypto.createCipheriv('aes-256-gcm', this.key, iv);
        cipher.setAAD(Buffer.from(aad, 'utf8'));
        const ciphertext = Buffer.concat([cipher.update(plaintext, 'utf8'), cipher.final()]);
        return [VERSION, iv.toString('base64url'), ciphertext.toString('base64url'), cipher.getAuthTag().toString('base64url')].join('.');
    }

    /** The plaintext, or null when the value was sealed with another key, for other data, or was altered. */
    open(sealed: string, aad: string): string | null {
        const parts = sealed.split('.');
        if (parts.length !== 4 || parts[0] !== VERSION) {
            return null;
        }
        try {
            const [iv, ciphertext, tag] = parts.slice(1).map((p) => Buffer.from(p, 'base64url'));
            if (iv.length !== 12 || tag.length !== 16) {
                return null;
            }
            const decipher = Crypto.createDecipheriv('aes-256-gcm', this.key, iv);
            decipher.setAAD(Buffer.from(aad, 'utf8'));
            decipher.setAuthTag(tag);
            return Buffer.concat([decipher.update(ciphertext), decipher.final()]).toString('utf8');
        }
        catch {
            return null;
        }
    }
}
