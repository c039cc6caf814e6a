import { language } from './texts';

/** A feature chunk's catalogues (`<lang>.json?<feature>`: only its `<feature>.*` keys), by language. */
export type FeatureCatalogues = Record<string, Record<string, (args?: Record<string, unknown>) => string>>;

/**
 * The texts of a feature chunk (DESIGN §10: the rating, files and leave-a-message chunks carry their own texts in
 * every language, the panel none of them): `text('send')` reads `<feature>.send` in the panel's language, else English.
 */
export function featureTexts(feature: string, catalogues: FeatureCatalogues): (key: string, args?: Record<string, unknown>) => string {
    return (key, args) => {
        const id = `${feature}.${key}`;
        return ((catalogues[language()] ?? catalogues.en)[id] ?? catalogues.en[id])(args);
    };
}
