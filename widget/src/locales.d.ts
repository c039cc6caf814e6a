/**
 * `<lang>.json?launcher`: the launcher's texts of a catalogue, compiled to functions by the webpack messages rule
 * (config/messages-loader.js) for the loader.
 */
declare module '*.json?launcher' {
    const texts: {
        launcherOpen(args: { store: string }): string;
        launcherClose(args: { store: string }): string;
        launcherUnread(args: { label: string; count: number }): string;
    };
    export default texts;
}
