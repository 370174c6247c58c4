// Package entry: build a sandbox in process, and verify webhook signatures in a receiver.
export { createSandbox, VERSION, type Sandbox } from './app';
export type { SandboxOptions } from './config';
export { verifyWebhookSignature } from './webhooks/signature';
