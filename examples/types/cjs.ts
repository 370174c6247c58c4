// A CommonJS consumer (package.json without "type": "module") loads the ES module package with import().
async function main(): Promise<void> {
  const { startSandbox, startReceiver } = await import('pix-sandbox/testing');
  const { VERSION } = await import('pix-sandbox');
  const receiver = await startReceiver();
  const sb = await startSandbox({ account: { webhooks: [{ url: receiver.url, secret: receiver.secret }] } });
  const clientId: string = sb.credentials.clientId;
  const hook = await receiver.next('payment_completed');
  const signed: boolean = hook.signatureValid;
  // @ts-expect-error the clock advances by a number of seconds
  await sb.advance('60');
  await sb.stop();
  await receiver.close();
  void [VERSION, clientId, signed];
}
void main;
// @ts-expect-error TS1470 shows this file is checked as CommonJS (it has no import.meta)
void import.meta.url;
export {};
