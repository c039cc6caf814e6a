import * as Http from 'http';
import type { AddressInfo } from 'net';

/** What the fake does for the next chat/completions request. */
export type Step =
    | { toolCall: string }
    | { answer: string }
    | { status: number }
    | { hang: true }
    | { garbage: true };

export interface ChatRequest {
    headers: Http.IncomingHttpHeaders;
    body: {
        model: string;
        messages: Array<{ role: string; content: string | null; tool_call_id?: string; tool_calls?: unknown[] }>;
        tools?: Array<{ type: string; function: { name: string } }>;
    };
}

/**
 * A real local server speaking the OpenAI chat/completions protocol (as OpenAI, Ollama, vLLM and llama.cpp
 * do): each request takes the next scripted step — a tool call, a final answer, an error status, a hang past
 * the client's timeout, or a body that is not JSON. Records every request. With no step left it answers
 * "(no script)".
 */
export async function startFakeOpenAi(): Promise<{ url: string; requests: ChatRequest[]; script(...steps: Step[]): void; close(): Promise<void> }> {
    const requests: ChatRequest[] = [];
    const steps: Step[] = [];
    const open = new Set<Http.ServerResponse>();
    let seq = 0;
    const server = Http.createServer((req, res) => {
        let raw = '';
        req.on('data', (chunk) => (raw += chunk));
        req.on('end', () => {
            if (req.method !== 'POST' || req.url !== '/v1/chat/completions') {
                res.writeHead(404, { 'content-type': 'application/json' });
                res.end(JSON.stringify({ error: { message: 'not found' } }));
                return;
            }
            requests.push({ headers: req.headers, body: JSON.parse(raw) });
            const step = steps.shift() ?? { answer: '(no script)' };
            if ('hang' in step) {
                open.add(res);
                return;
            }
            if ('status' in step) {
                res.writeHead(step.status, { 'content-type': 'application/json' });
                res.end(JSON.stringify({ error: { message: 'model is down' } }));
                return;
            }
            res.writeHead(200, { 'content-type': 'application/json' });
            if ('garbage' in step) {
                res.end('<html>bad gateway</html>');
                return;
            }
            const message = 'toolCall' in step
                ? { role: 'assistant', content: null, tool_calls: [{ id: `call_${++seq}`, type: 'function', function: { name: step.toolCall, arguments: '{}' } }] }
                : { role: 'assistant', content: step.answer };
            res.end(JSON.stringify({
                id: `chatcmpl-${++seq}`, object: 'chat.completion', created: Math.floor(Date.now() / 1000), model: 'fake',
                choices: [{ index: 0, message, finish_reason: 'toolCall' in step ? 'tool_calls' : 'stop' }]
            }));
        });
    });
    await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
    return {
        url: `http://127.0.0.1:${(server.address() as AddressInfo).port}/v1`,
        requests,
        script: (...more) => steps.push(...more),
        close: () => new Promise<void>((resolve) => {
            for (const res of open) {
                res.destroy();
            }
            server.close(() => resolve());
        })
    };
}
