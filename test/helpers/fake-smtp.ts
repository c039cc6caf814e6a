import { SMTPServer } from 'smtp-server';

export interface ReceivedMail {
    from: string;
    to: string[];
    raw: string;
}

/** A real SMTP server on 127.0.0.1, port 0, that keeps what it receives (SMTP is an outside service). */
export async function startFakeSmtp(): Promise<{ url: string; received: ReceivedMail[]; close(): Promise<void>; waitFor(n: number, ms?: number): Promise<void> }> {
    const received: ReceivedMail[] = [];
    const server = new SMTPServer({
        authOptional: true,
        disabledCommands: ['STARTTLS'],
        logger: false,
        onData(stream, session, callback) {
            const chunks: Buffer[] = [];
            stream.on('data', (c: Buffer) => chunks.push(c));
            stream.on('end', () => {
                received.push({
                    from: session.envelope.mailFrom ? session.envelope.mailFrom.address : '',
                    to: session.envelope.rcptTo.map((r) => r.address),
                    raw: Buffer.concat(chunks).toString('utf8')
                });
                callback();
            });
        }
    });
    await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', () => resolve()));
    const port = (server.server.address() as { port: number }).port;
    return {
        url: `smtp://127.0.0.1:${port}`,
        received,
        close: () => new Promise<void>((resolve) => server.close(() => resolve())),
        async waitFor(n: number, ms = 5000) {
            const until = Date.now() + ms;
            while (received.length < n) {
                if (Date.now() > until) {
                    throw new Error(`expected ${n} emails, got ${received.length}`);
                }
                await new Promise((r) => setTimeout(r, 25));
            }
        }
    };
}
