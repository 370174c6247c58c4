// The customer's pay form of the checkout page and /pay; /assets/payer-form.js sends it to the charge's pay route.
import type { Child } from 'hono/jsx';

export function PayForm({ disabled, children }: { disabled?: boolean; children: Child }) {
  return (
    <form id="pay-form" class="stack">
      <div class="field">
        <label for="payer-name">Payer name (optional)</label>
        <input id="payer-name" name="payerName" autocomplete="name" maxlength={255} />
      </div>
      <div class="field">
        <label for="payer-document">Payer CPF or CNPJ (optional)</label>
        <input id="payer-document" name="payerDocument" inputmode="numeric" maxlength={18} placeholder="52998224725" />
      </div>
      <button type="submit" id="pay" disabled={disabled}>
        {children}
      </button>
    </form>
  );
}

/** The scripts a page with the pay form loads before its own. */
export const PAY_FORM_SCRIPT = '/assets/payer-form.js';
