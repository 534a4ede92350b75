// Minimal types for the two stand-ins that ship none.
declare module 's3rver' {
  import type { IncomingMessage, ServerResponse } from 'node:http';
  export default class S3rver {
    constructor(options: {
      directory: string;
      silent?: boolean;
      configureBuckets?: { name: string; configs: (string | Buffer)[] }[];
    });
    configureBuckets(): Promise<void>;
    callback(): (req: IncomingMessage, res: ServerResponse) => Promise<void>;
  }
}
declare module 'dynalite' {
  import type { Server } from 'node:http';
  export default function dynalite(options: {
    path?: string;
    createTableMs?: number;
    deleteTableMs?: number;
    updateTableMs?: number;
  }): Server;
}
