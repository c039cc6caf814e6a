/**
 * The widget's own default texts in each language, for the admin app's preview (issue 27): the widget's catalogues
 * (widget/locales/<lang>.json, compiled to functions at build time like every catalogue), each fetched as a chunk of
 * its own when the preview first shows that language.
 */
export interface WidgetDefaults {
    title(args: { store: string }): string;
    greeting(args: { store: string }): string;
    privacyLine(): string;
    privacyLink(): string;
}

const loaded = new Map<string, Promise<WidgetDefaults>>();

export function widgetDefaults(lang: string): Promise<WidgetDefaults> {
    let texts = loaded.get(lang);
    if (!texts) {
        texts = import(/* webpackChunkName: "widget-texts-[request]" */ `../../../../widget/locales/${lang}.json`)
            .then((m: { default: unknown }) => m.default as WidgetDefaults);
        loaded.set(lang, texts);
    }
    return texts;
}

/** Right-to-left languages (of the shipped ones, Arabic): the preview mirrors like the widget does. */
export function isRtl(lang: string): boolean {
    return /^(ar|he|fa|ur)\b/i.test(lang);
}
