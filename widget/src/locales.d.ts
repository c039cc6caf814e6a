/**
 * `<lang>.json?launcher`: the launcher's label on the merchant page (`launcherOpen`) of a catalogue, compiled to functions by the webpack messages rule
 * (config/messages-loader.js) for the loader.
 */
declare module '*.json?launcher' {
    const texts: {
        launcherOpen(args: { store: string }): string;
    };
    export default texts;
}
