// The payer page (/pay): a phone or a second screen plays the customer's bank. A BR Code comes in pasted, from an
// image file or from the camera (decoded in the page by jsQR, served from node_modules); the page sends the text to
// POST /_sandbox/brcodes/decode, which holds every rule, shows the checks, and pays through the control route.
// It also lists the magic values of sandbox.md 4.11, from the module their behaviour reads.
import { MAGIC_VALUES } from '../domain/magic';
import { Layout } from './layout';

/** Where the sandbox serves jsQR (dist/jsQR.js of the jsqr package; see http/payer.ts). */
export const JSQR_PATH = '/assets/vendor/jsqr.js';

export function payPage({ tokenRequired }: { tokenRequired: boolean }) {
  return (
    <Layout title="Pay a PIX code" active="pay" scripts={[JSQR_PATH, '/assets/pay.js']} needsToken={tokenRequired}>
      <div id="payer" class="payer">
        <h1>Pay a PIX code</h1>
        <p class="muted">Play the customer's bank: read a BR Code, see what it says and whether it is valid, and pay the charge it points at.</p>
        <section class="card" aria-labelledby="read-title">
          <h2 id="read-title">1. Read the code</h2>
          <form id="decode-form">
            <label for="brcode">BR Code (PIX copia e cola)</label>
            <textarea id="brcode" name="code" rows={5} spellcheck={false} autocomplete="off" placeholder="00020101021226..."></textarea>
            <p class="row">
              <button type="submit" id="decode">Check code</button>
              <label class="button secondary" for="qr-file">
                Read a QR image
              </label>
              <input id="qr-file" class="visually-hidden" type="file" accept="image/*" />
              <button type="button" id="camera-start" class="secondary">
                Use the camera
              </button>
              <button type="button" id="camera-stop" class="secondary" hidden>
                Stop the camera
              </button>
            </p>
          </form>
          <video id="camera" class="camera" playsinline muted hidden aria-label="Camera preview: hold the QR code in view"></video>
          <p id="read-result" role="status" aria-live="polite"></p>
        </section>
        <section class="card" aria-labelledby="result-title" id="result" hidden>
          <h2 id="result-title">2. What it says</h2>
          <p id="verdict" class="verdict" role="status" aria-live="polite"></p>
          <div class="table-wrap">
            <table id="checks" class="collapse">
              <caption class="visually-hidden">Checks of the BR Code</caption>
              <thead>
                <tr>
                  <th scope="col">Check</th>
                  <th scope="col">Field</th>
                  <th scope="col">Found</th>
                  <th scope="col">Result</th>
                </tr>
              </thead>
              <tbody></tbody>
            </table>
          </div>
          <details>
            <summary>All fields</summary>
            <div class="table-wrap">
              <table id="fields" class="collapse">
                <caption class="visually-hidden">Fields of the BR Code</caption>
                <thead>
                  <tr>
                    <th scope="col">ID</th>
                    <th scope="col">Name</th>
                    <th scope="col">Value</th>
                  </tr>
                </thead>
                <tbody></tbody>
              </table>
            </div>
          </details>
        </section>
        <section class="card" aria-labelledby="pay-title" id="pay-section" hidden>
          <h2 id="pay-title">3. Pay it</h2>
          <p id="charge-summary"></p>
          <form id="pay-form" class="stack">
            <div class="field">
              <label for="payer-name">Payer name (optional)</label>
              <input id="payer-name" name="payerName" autocomplete="name" maxlength={255} />
            </div>
            <div class="field">
              <label for="payer-document">Payer CPF or CNPJ (optional)</label>
              <input id="payer-document" name="payerDocument" inputmode="numeric" maxlength={18} placeholder="52998224725" />
            </div>
            <button type="submit" id="pay">
              Pay
            </button>
          </form>
          <p id="pay-result" role="alert"></p>
        </section>
        <section class="card" aria-labelledby="magic-title">
          <h2 id="magic-title">Magic values</h2>
          <p class="muted">
            Type these into the app under test to choose an outcome with no control call (times on the sandbox clock; an account's <code>automation.magicValues: false</code> turns them off).
          </p>
          <div class="table-wrap">
            <table id="magic" class="collapse">
              <thead>
                <tr>
                  <th scope="col">Where</th>
                  <th scope="col">Value</th>
                  <th scope="col">Outcome</th>
                </tr>
              </thead>
              <tbody>
                {MAGIC_VALUES.map((m) => (
                  <tr>
                    <td data-label="Where">
                      <code>{m.where === 'charge.customer.document' ? 'charge customer.document' : 'withdrawal pixKey'}</code>
                    </td>
                    <td data-label="Value">
                      <span>
                        {m.values.map((v, i) => (
                          <>
                            {i > 0 ? ' or ' : ''}
                            <code>{v}</code>
                          </>
                        ))}
                      </span>
                    </td>
                    <td data-label="Outcome">{m.description}</td>
                  </tr>
                ))}
              </tbody>
            </table>
          </div>
        </section>
      </div>
    </Layout>
  );
}
