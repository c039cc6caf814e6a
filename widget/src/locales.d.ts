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

/** `<lang>.json?rating`: the `rating.*` texts of a catalogue (the rating chunk, issue 28). */
declare module '*.json?rating' {
    const texts: Record<string, (args?: Record<string, unknown>) => string>;
    export default texts;
}

/** `<lang>.json?files`: the `files.*` texts of a catalogue (the files chunk, issue 29). */
declare module '*.json?files' {
    const texts: Record<string, (args?: Record<string, unknown>) => string>;
    export default texts;
}

/** `<lang>.json?offline`: the `offline.*` texts of a catalogue (the leave-a-message chunk). */
declare module '*.json?offline' {
    const texts: Record<string, (args?: Record<string, unknown>) => string>;
    export default texts;
}

/** `<lang>.json?email`: the `email.*` texts of a catalogue (leaving an email in a live chat, issue 28). */
declare module '*.json?email' {
    const texts: Record<string, (args?: Record<string, unknown>) => string>;
    export default texts;
}
