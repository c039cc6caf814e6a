/**
 * Stands in for Blueprint's built-in icon loaders (all paths / split by size, 100 KB a size) so webpack neither
 * bundles nor emits them: ui/src/icons.ts sets a per-icon loader before anything renders.
 */
function unavailable(): never {
    throw new Error('Blueprint\'s built-in icon loaders are not shipped; ui/src/icons.ts loads icons one by one');
}
export const allPathsLoader = unavailable;
export const splitPathsBySizeLoader = unavailable;
