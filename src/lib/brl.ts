// The one rule for showing an amount of reais (pages, and the messages they show): below everything, so the BR Code
// checks of pix/ use it too.

/**
 * Cents as a person reads reais, the one rule of every amount a page shows (pt-BR: "." groups thousands, ","
 * before the cents): 101950 -> "R$ 1.019,50", -50 -> "-R$ 0,50". /assets/sandbox.js's brl() is the same rule in
 * the browser (test/browser/room-fixes.test.ts holds them together).
 */
export function brlAmount(cents: number): string {
  const abs = Math.abs(Math.round(cents));
  const reais = String(Math.floor(abs / 100)).replace(/\B(?=(\d{3})+(?!\d))/g, '.');
  return `${cents < 0 ? '-' : ''}R$ ${reais},${String(abs % 100).padStart(2, '0')}`;
}
