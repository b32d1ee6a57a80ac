// Types for server-command.mjs, which is plain JS so that scripts/start.mjs can import it.
export declare const SERVER_NODE_ARGS: string[];
