import { startFakeHttp } from './fake-http';

/** A fake of Twilio's Messages API: answers 201 with a sid, or `failWith` when set. */
export async function startFakeTwilio() {
    const state = { failWith: 0 };
    const fake = await startFakeHttp((req) => {
        if (req.method !== 'POST' || !/^\/2010-04-01\/Accounts\/[^/]+\/Messages\.json$/.test(req.url)) {
            return { status: 404, body: { message: 'not found' } };
        }
        if (state.failWith) {
            return { status: state.failWith, body: { code: 21211, message: 'Invalid To phone number' } };
        }
        return { status: 201, body: { sid: `SM${fake.requests.length}`, status: 'queued' } };
    });
    return Object.assign(fake, { state });
}
