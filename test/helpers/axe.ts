import * as Fs from 'fs';
import type { Page } from 'puppeteer-core';
import type { AxeResults, Result } from 'axe-core';

const AXE_SOURCE = Fs.readFileSync(require.resolve('axe-core/axe.min.js'), 'utf8');

/** WCAG 2.0–2.2 A and AA plus axe's best practices (landmarks, headings, regions). */
const TAGS = ['wcag2a', 'wcag2aa', 'wcag21a', 'wcag21aa', 'wcag22aa', 'best-practice'];

/** Best-practice rules we hold to as strictly as a serious violation (issue 15: one h1, landmarks, heading order). */
const ALSO_FAIL = new Set(['page-has-heading-one', 'landmark-one-main', 'region', 'heading-order', 'landmark-unique',
    'landmark-no-duplicate-main', 'empty-table-header', 'label-content-name-mismatch']);

export interface PageStructure {
    h1: string[];
    mains: number;
    /** Heading levels in document order (visible headings, dialogs included). */
    levels: number[];
    /** Their text, in the same order. */
    texts: string[];
}

/** What the structural checks look at, read in the page. */
export async function pageStructure(page: Page): Promise<PageStructure> {
    return page.evaluate(() => {
        const visible = (el: Element) => {
            const box = (el as HTMLElement).getBoundingClientRect();
            return box.width > 0 && box.height > 0 && getComputedStyle(el).visibility !== 'hidden';
        };
        const headings = Array.from(document.querySelectorAll('h1, h2, h3, h4, h5, h6, [role="heading"]')).filter(visible);
        const level = (el: Element) => (el.getAttribute('role') === 'heading' ? Number(el.getAttribute('aria-level') ?? 2) : Number(el.tagName[1]));
        return {
            h1: headings.filter((h) => level(h) === 1).map((h) => (h.textContent ?? '').trim()),
            mains: Array.from(document.querySelectorAll('main, [role="main"]')).filter(visible).length,
            levels: headings.map(level),
            texts: headings.map((h) => (h.textContent ?? '').trim().slice(0, 40))
        };
    });
}

function describe(violations: Result[]): string {
    return violations.map((v) => `${v.impact} ${v.id}: ${v.help}\n` + v.nodes.slice(0, 5)
        .map((n) => `    ${n.target.join(' ')} ${n.html.slice(0, 200)} ${n.failureSummary?.replace(/\s+/g, ' ') ?? ''}`).join('\n')).join('\n');
}

/**
 * Waits (up to 3 s) until no finite CSS transition or animation runs in the page: axe measures colours as they are
 * at that instant, so a toast fading out (primary at 20 % opacity: light text on a light tint) or a drawer
 * fading in would be reported as low contrast. Endless ones (spinners) are not waited for.
 */
async function settleAnimations(page: Page): Promise<void> {
    await page.waitForFunction(() => document.getAnimations()
        .every((a) => a.playState !== 'running' || a.effect?.getTiming().iterations === Infinity), { timeout: 3000, polling: 50 })
        .catch(() => undefined);
}

/** Runs axe-core in the page (CSP does not apply to DevTools evaluation) and returns its results. */
export async function runAxe(page: Page, scope?: string): Promise<AxeResults> {
    await settleAnimations(page);
    const loaded = await page.evaluate('typeof window.axe === "object"');
    if (!loaded) {
        await page.evaluate(AXE_SOURCE);
    }
    // A scope (a host element's selector) takes in its shadow tree too: axe walks the flattened tree.
    return page.evaluate((tags: string[], sel: string | null) => (window as any).axe.run(sel ? { include: [[sel]] } : document, {
        runOnly: { type: 'tag', values: tags },
        resultTypes: ['violations']
    }), TAGS, scope ?? null) as Promise<AxeResults>;
}

/** Page-level rules that say nothing about a component embedded in someone else's page. */
const PAGE_ONLY = new Set(['page-has-heading-one', 'landmark-one-main', 'region', 'landmark-no-duplicate-main', 'bypass']);

/**
 * Fails (with every offending rule and element) when the page in its current state has a critical or serious
 * axe violation, or breaks a structure rule of issue 15: exactly one visible h1, exactly one main landmark,
 * no heading more than one level below the one before it, no content outside landmarks, no empty table header.
 * `label` names the page and state in the message. With `scope` (a selector, e.g. a widget's shadow host) only
 * that element and its shadow tree are checked, and the page-level structure rules are left out.
 */
export async function expectNoSeriousViolations(page: Page, label: string, options: { scope?: string } = {}): Promise<void> {
    const results = await runAxe(page, options.scope);
    const failing = results.violations.filter((v) => (v.impact === 'critical' || v.impact === 'serious' || ALSO_FAIL.has(v.id))
        && !(options.scope && PAGE_ONLY.has(v.id)));
    const problems: string[] = [];
    if (failing.length) {
        problems.push(describe(failing));
    }
    if (options.scope) {
        // A widget on a merchant's page: its h1 and main are the merchant's business, so only axe's rules apply.
        if (problems.length) {
            throw new Error(`accessibility of ${label}:\n${problems.join('\n')}`);
        }
        return;
    }
    const structure = await pageStructure(page);
    if (structure.h1.length !== 1) {
        problems.push(`expected exactly one h1, found ${structure.h1.length}: ${JSON.stringify(structure.h1)}`);
    }
    if (structure.mains !== 1) {
        problems.push(`expected exactly one main landmark, found ${structure.mains}`);
    }
    for (let i = 1; i < structure.levels.length; i++) {
        if (structure.levels[i] > structure.levels[i - 1] + 1) {
            problems.push(`heading order: h${structure.levels[i]} '${structure.texts[i]}' follows h${structure.levels[i - 1]} '${structure.texts[i - 1]}' (levels ${structure.levels.join(', ')})`);
            break;
        }
    }
    if (problems.length) {
        throw new Error(`accessibility of ${label}:\n${problems.join('\n')}`);
    }
}
