/** The recorder's redaction: the shared rules (lib/shared/redactor.ts), below both the CLI and the library journal. */
export * from '../shared/redactor.js';
