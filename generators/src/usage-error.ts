/** A command line the CLI cannot run (exit 3): the message says what to change. */
export class UsageError extends Error {}
