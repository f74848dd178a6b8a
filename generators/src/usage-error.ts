/** A command line the user must change (exit code 3), as opposed to a bad spec or a bug. */
export class UsageError extends Error {}
