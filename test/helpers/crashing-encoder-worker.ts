import { parentPort } from 'worker_threads';

/**
 * A stand-in for the sentence encoder's thread (meanings.ts, workerEncoder's `script`), for the tests: it answers zero
 * vectors of 512 dimensions, and dies (an uncaught error: the thread's 'error', then its 'exit') when asked to encode 'crash'.
 */
parentPort?.on('message', (message: { id: number; texts: string[] }) => {
    if (message.texts.includes('crash')) {
        setImmediate(() => {
            throw new Error('the stand-in encoder crashed');
        });
        return;
    }
    parentPort?.postMessage({ id: message.id, vectors: message.texts.map(() => new Float32Array(512)) });
});
