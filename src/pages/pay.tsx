// The payer page (/pay): a phone or a second screen plays the customer's bank. A BR Code comes in pasted, from an
// image file or from the camera (decoded in the page by jsQR, served from node_modules); the page sends the text to
// POST /_sandbox/brcodes/decode, which holds every rule, shows the checks, and pays through the control route.
// It also lists the magic values of sandbox.md 4.11, from the module their behaviour reads.
import type { Child } from 'hono/jsx';
import { MAGIC_VALUES } from '../domain/magic';
import { Layout } from './layout';
import { JSQR_PATH } from './static';
import { PAY_FORM_SCRIPT, PayForm } from './pay-form';
import type { PendingAuthorisation } from '../services/recs';
import { brl } from './format';
import type { PageAttendee } from './attendee';

/** Where the sandbox serves jsQR (dist/jsQR.js of the jsqr package; see pages/payer.ts). */

/** A table that turns into one card per row on a narrow screen (each cell labelled by data-label). */
function Table({ id, caption, columns, children }: { id: string; caption: string; columns: string[]; children?: Child }) {
  return (
    <div class="table-wrap">
      <table id={id} class="collapse">
        <caption class="visually-hidden">{caption}</caption>
        <thead>
          <tr>
            {columns.map((c) => (
              <th scope="col">{c}</th>
            ))}
          </tr>
        </thead>
        <tbody>{children}</tbody>
      </table>
    </div>
  );
}

/** The Pix Automático recurrences waiting for the payer's answer, as a bank app asks for it: accept or refuse. */
function Authorisations({ items }: { items: PendingAuthorisation[] }) {
  return (
    <section class="card" aria-labelledby="rec-title" id="authorisations">
      <h2 id="rec-title">Recurrences waiting for your authorisation</h2>
      <p class="muted">Pix Automático: each receiver asks once; once you authorise, its charges are debited on their due dates.</p>
      {items.length === 0 ? (
        <p id="no-authorisations">None: a receiver asks with POST /api-pix/v2/solicrec.</p>
      ) : (
        <Table id="rec-requests" caption="Recurrences waiting for authorisation" columns={['Receiver', 'What', 'Value', 'Answer']}>
          {items.map(({ id, receiver, rec }) => (
            <tr data-solicrec={id}>
              <td data-label="Receiver">{receiver}</td>
              <td data-label="What">
                {rec.vinculo.objeto ?? rec.vinculo.contrato} ({rec.calendario.periodicidade.toLowerCase()} from {rec.calendario.dataInicial}
                {rec.calendario.dataFinal ? ` to ${rec.calendario.dataFinal}` : ''}), debtor {rec.vinculo.devedor.nome}
              </td>
              <td data-label="Value">{rec.valorRec !== undefined ? brl(rec.valorRec) : rec.valorMinimoRecebedor !== undefined ? `from ${brl(rec.valorMinimoRecebedor)}` : 'variable'}</td>
              <td data-label="Answer">
                <button type="button" class="rec-answer" data-solicrec={id} data-answer="accept">
                  Authorise
                </button>{' '}
                <button type="button" class="rec-answer secondary" data-solicrec={id} data-answer="reject">
                  Refuse
                </button>
                <span class="rec-result" role="status" aria-live="polite"></span>
              </td>
            </tr>
          ))}
        </Table>
      )}
    </section>
  );
}

/**
 * A Pix Automático recurrence read from a code (its own QR, or a QR Composto with a charge): what it is and the
 * payer's answer, as a bank app asks for it. Filled by /assets/pay-rec.js from the decode result.
 */
function QrRecurrence() {
  return (
    <section class="card" aria-labelledby="qr-rec-title" id="qr-recurrence" hidden>
      <h2 id="qr-rec-title">Authorise this recurrence?</h2>
      <p class="muted">Pix Automático: authorise once, and the receiver's charges are debited on their dates until you cancel.</p>
      <dl id="qr-rec-details"></dl>
      <p class="row" id="qr-rec-actions">
        <button type="button" id="qr-rec-authorise">
          Authorise
        </button>
        <button type="button" id="qr-rec-decline" class="secondary">
          Decline
        </button>
      </p>
      <p id="qr-rec-result" role="status" aria-live="polite"></p>
    </section>
  );
}

export function payPage({ tokenRequired, phoneUrl, authorisations = [], attendee }: { tokenRequired: boolean; phoneUrl?: string; authorisations?: PendingAuthorisation[]; attendee?: PageAttendee | undefined }) {
  return (
    <Layout title="Pay a PIX code" active="pay" scripts={[JSQR_PATH, PAY_FORM_SCRIPT, '/assets/pay.js', '/assets/pay-rec.js']} follows needsToken={tokenRequired} phoneUrl={phoneUrl} attendee={attendee}>
      <div id="payer" class="payer">
        <h1>Pay a PIX code</h1>
        <p class="muted">Play the customer's bank: read a BR Code, see what it says and whether it is valid, and pay the charge it points at.</p>
        <section class="card" aria-labelledby="read-title">
          <h2 id="read-title">1. Read the code</h2>
          <form id="decode-form">
            <label for="brcode">BR Code (PIX copia e cola)</label>
            <textarea id="brcode" name="code" rows={4} aria-describedby="read-result verdict" spellcheck={false} autocomplete="off" placeholder="00020101021226..."></textarea>
            <p class="row">
              <button type="button" id="paste" class="secondary">
                Paste
              </button>
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
          <h2 id="result-title">2. What it says, and pay it</h2>
          <p id="verdict" class="verdict" role="status" aria-live="polite"></p>
          <div id="pay-section" hidden>
            <p id="charge-summary"></p>
            <p id="pay-blocked" class="notice" hidden></p>
            <PayForm>Pay</PayForm>
            <p id="pay-result" role="alert"></p>
            <div id="paid-screen" class="paid-screen" hidden>
              <span class="mark" aria-hidden="true">
                ✓
              </span>
              <strong id="paid-title">Paid</strong>
              <p id="paid-detail"></p>
              <button type="button" id="pay-another" class="secondary">
                Pay another code
              </button>
            </div>
          </div>
          <details id="checks-details">
            <summary>Field checks and all fields</summary>
            <Table id="checks" caption="Checks of the BR Code" columns={['Check', 'Field', 'Found', 'Result']} />
            <h3>All fields</h3>
            <Table id="fields" caption="Fields of the BR Code" columns={['ID', 'Name', 'Value']} />
          </details>
        </section>
        <QrRecurrence />
        <Authorisations items={authorisations} />
        <section class="card" aria-labelledby="magic-title">
          <h2 id="magic-title">Magic values</h2>
          <p class="muted">
            Type these into the app under test to choose an outcome with no control call (times on the sandbox clock; an account's <code>automation.magicValues: false</code> turns them off).
          </p>
          <Table id="magic" caption="Magic values" columns={['Where', 'Value', 'Outcome']}>
            {MAGIC_VALUES.map((m) => (
              <tr>
                <td data-label="Where">
                  <code>{m.where === 'charge.customer.document' ? 'charge customer.document' : m.where === 'withdrawal.pixKey' ? 'withdrawal pixKey' : 'rec vinculo.devedor'}</code>
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
          </Table>
        </section>
      </div>
    </Layout>
  );
}
