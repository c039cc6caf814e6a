export const sleep = (ms: number) => new Promise<void>((resolve) => setTimeout(resolve, ms));

/** Polls check every 20 ms until it holds; throws naming what was awaited after ms. */
export async function until(check: () => boolean, ms = 5000, what = 'condition'): Promise<void> {
    const end = Date.now() + ms;
    while (!check()) {
        if (Date.now() > end) {
            throw new Error(`timed out waiting for ${what}`);
        }
        await sleep(20);
    }
}
