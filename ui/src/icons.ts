/**
 * Blueprint icons, loaded one at a time (issue 15): every <Icon> asks Icons.load(name, size), and this loader
 * fetches that one icon's SVG paths from /assets/icons/<version>/<16|20>/<name>.json (emitted by
 * config/icon-paths-plugin.js, cached for a year). No icon font and no all-icons chunk is shipped.
 * Imported once, first thing, by main.tsx.
 */
import { Icons, IconSize, type IconName, type IconPaths } from '@blueprintjs/icons';

declare const __ICONS_VERSION__: string;

/** The URL of one icon's paths at 16 or 20 px (Blueprint draws other sizes by scaling the nearer one). */
export function iconUrl(name: IconName, size: number): string {
    const px = size >= IconSize.LARGE ? IconSize.LARGE : IconSize.STANDARD;
    return `/assets/icons/${__ICONS_VERSION__}/${px}/${encodeURIComponent(name)}.json`;
}

const pending = new Map<string, Promise<IconPaths>>();

export function loadIconPaths(name: IconName, size: IconSize): Promise<IconPaths> {
    const url = iconUrl(name, size);
    let request = pending.get(url);
    if (!request) {
        request = fetch(url, { credentials: 'omit' }).then(async (res) => {
            if (!res.ok) {
                throw new Error(`icon ${name} (${size}px): HTTP ${res.status}`);
            }
            const paths: unknown = await res.json();
            if (!Array.isArray(paths) || !paths.every((p) => typeof p === 'string')) {
                throw new Error(`icon ${name} (${size}px): not a list of paths`);
            }
            return paths as IconPaths;
        });
        request.catch(() => pending.delete(url));
        pending.set(url, request);
    }
    return request;
}

Icons.setLoaderOptions({ loader: loadIconPaths });
