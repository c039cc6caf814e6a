import * as Http from 'http';
import type { AddressInfo } from 'net';

export interface RecordedRequest {
    method: string;
    url: string;
    headers: Http.IncomingHttpHeaders;
    body: string;
}

/** A real local HTTP server standing in for an outside service; records every request. */
export async function startFakeHttp(handler: (req: RecordedRequest) => { status: number; body?: unknown }): Promise<{ url: string; requests: RecordedRequest[]; close(): Promise<void> }> {
    const requests: RecordedRequest[] = [];
    const server = Http.createServer((req, res) => {
        let body = '';
        req.on('data', (chunk) => (body += chunk));
        req.on('end', () => {
            const recorded = { method: req.method ?? '', url: req.url ?? '', headers: req.headers, body };
            requests.push(recorded);
            const answer = handler(recorded);
            res.writeHead(answer.status, { 'content-type': 'application/json' });
            res.end(answer.body === undefined ? '' : JSON.stringify(answer.body));
        });
    });
    await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
    return {
        url: `http://127.0.0.1:${(server.address() as AddressInfo).port}`,
        requests,
        close: () => new Promise<void>((resolve) => server.close(() => resolve()))
    };
}
