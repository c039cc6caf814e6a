/** Two short beeps (SPEC §2: a new chat request). Browsers may block audio before the first click: then silent. */
export function playTwoBeeps(): void {
    try {
        const Ctx = window.AudioContext ?? (window as unknown as { webkitAudioContext?: typeof AudioContext }).webkitAudioContext;
        if (!Ctx) {
            return;
        }
        const ctx = new Ctx();
        [0, 0.25].forEach((start) => {
            const osc = ctx.createOscillator();
            const gain = ctx.createGain();
            osc.type = 'sine';
            osc.frequency.value = 880;
            gain.gain.value = 0.2;
            osc.connect(gain).connect(ctx.destination);
            osc.start(ctx.currentTime + start);
            osc.stop(ctx.currentTime + start + 0.15);
        });
        setTimeout(() => void ctx.close().catch(() => {}), 1000);
    }
    catch {
        // no audio available
    }
}

export function notificationsSupported(): boolean {
    return typeof window !== 'undefined' && 'Notification' in window;
}

/** A browser notification when the agent allowed them; a click brings the tab forward and runs `onClick`. */
export function notifyBrowser(title: string, body: string, onClick?: () => void): void {
    if (notificationsSupported() && Notification.permission === 'granted') {
        try {
            const notification = new Notification(title, { body, tag: 'loyalty-chat-new-request' });
            notification.onclick = () => {
                window.focus();
                notification.close();
                onClick?.();
            };
        }
        catch {
            // some browsers allow notifications only from a service worker
        }
    }
}

/** mm:ss of a number of seconds. */
export function mmss(totalSeconds: number): string {
    const s = Math.max(0, Math.floor(totalSeconds));
    return `${String(Math.floor(s / 60)).padStart(2, '0')}:${String(s % 60).padStart(2, '0')}`;
}

/** SPEC §4: waiting timer green under 60 s, yellow under 300 s, red after. */
export function waitColour(seconds: number): 'green' | 'yellow' | 'red' {
    return seconds < 60 ? 'green' : seconds < 300 ? 'yellow' : 'red';
}
