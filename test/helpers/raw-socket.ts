import WebSocket from 'ws';

/** A WebSocket speaking nes frames by hand, as an attacker would: every frame answered and the close code kept. */
export interface RawSocket {
    ws: WebSocket;
    frames: any[];
    /** Resolves with [code, reason] once the server closed the connection. */
    closed: Promise<[number, string]>;
    isClosed(): boolean;
    send(frame: unknown): void;
    sendText(text: string): void;
    /** Sends a frame with a fresh id and waits for the answer with that id (or the close). */
    call(frame: Record<string, unknown>, ms?: number): Promise<any>;
}

let nextId = 1;

export function openRaw(wsUrl: string, headers: Record<string, string> = {}): Promise<RawSocket> {
    return new Promise((resolve, reject) => {
        const ws = new WebSocket(wsUrl, { headers });
        const frames: any[] = [];
        let isClosed = false;
        const closed = new Promise<[number, string]>((done) => ws.on('close', (code, reason) => {
            isClosed = true;
            done([code, reason.toString()]);
        }));
        ws.on('message', (data) => {
            try {
                frames.push(JSON.parse(data.toString()));
            }
            catch {
                frames.push(data.toString());
            }
        });
        ws.on('error', () => undefined);
        const socket: RawSocket = {
            ws,
            frames,
            closed,
            isClosed: () => isClosed,
            send: (frame) => ws.send(JSON.stringify(frame)),
            sendText: (text) => ws.send(text),
            async call(frame, ms = 3000) {
                const id = nextId++;
                ws.send(JSON.stringify({ ...frame, id }));
                const end = Date.now() + ms;
                for (;;) {
                    const answer = frames.find((f) => f && f.id === id);
                    if (answer) {
                        return answer;
                    }
                    if (isClosed) {
                        return { closed: true };
                    }
                    if (Date.now() > end) {
                        throw new Error(`no answer to ${JSON.stringify(frame)}`);
                    }
                    await new Promise((r) => setTimeout(r, 10));
                }
            }
        };
        ws.once('open', () => resolve(socket));
        ws.once('unexpected-response', (_req, res) => reject(new Error(`upgrade refused: ${res.statusCode}`)));
    });
}

/** The nes hello frame with a Bearer token. */
export function hello(token?: string): Record<string, unknown> {
    return token ? { type: 'hello', version: '2', auth: { headers: { authorization: `Bearer ${token}` } } } : { type: 'hello', version: '2' };
}

/**
 * The sockets of a fast reload: each says hello with the token and is gone (its connection cut) `waitMs` later, before
 * a busy server has answered it.
 */
export async function helloThenGone(wsUrl: string, token: string, times = 3, waitMs = 50): Promise<void> {
    for (let i = 0; i < times; i++) {
        const socket = await openRaw(wsUrl);
        socket.send({ ...hello(token), id: 1 });
        await new Promise((r) => setTimeout(r, waitMs));
        socket.ws.terminate();
    }
}
