import { parentPort } from 'worker_threads';
import { packagedEncoder } from './meanings';

/**
 * The sentence encoder's thread (meanings.ts, workerEncoder): TensorFlow.js holds the thread for about 10 ms a question
 * and 20 ms a knowledge entry's text, so it runs here, beside the server's event loop, never on it. One request at a
 * time, in the order they come.
 */
const encoder = packagedEncoder();
let queue: Promise<void> = Promise.resolve();

parentPort?.on('message', (message: { id: number; texts: string[] }) => {
    queue = queue.then(async () => {
        try {
            const vectors = await encoder.encode(message.texts);
            parentPort?.postMessage({ id: message.id, vectors }, vectors.map((v) => v.buffer as ArrayBuffer));
        }
        catch (err) {
            parentPort?.postMessage({ id: message.id, error: (err as Error).message });
        }
    });
});
