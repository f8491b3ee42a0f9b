// The part of s3rver (a local S3 server, no types of its own) that the API's tests and the soak use:
// one declaration, included by apps/api/tsconfig.json and bench/tsconfig.json.
declare module "s3rver" {
  // biome-ignore lint/style/noDefaultExport: s3rver is a CommonJS module whose export is this class.
  export default class S3rver {
    constructor(options: {
      address?: string;
      port?: number;
      silent?: boolean;
      directory?: string;
      resetOnClose?: boolean;
      configureBuckets?: { name: string }[];
    });
    run(): Promise<{ address: string; port: number }>;
    close(): Promise<void>;
  }
}
