import type { BillingUsecases, PaymentView } from '../../billing/billing.usecases.ts';
import { formatMoney } from '../../../shared/money.ts';
import { html, type Html } from './html.ts';
import { csrfField, errorBox, page, when, type Viewer } from './layout.ts';

type Offer = ReturnType<BillingUsecases['offer']>;
type Pack = Offer['packs'][number];
type TopupSettings = Awaited<ReturnType<BillingUsecases['autoTopup']['settings']>>;

/** The auto top-up form as posted, refilled beside its error. */
export interface TopupInput {
  threshold: string;
  pack: string;
  monthlyMax: string;
}

export interface BuyView {
  viewer: Viewer;
  offer: Offer;
  /** Whom to ask for credits, for an instance that sells none. */
  howToGet: string;
  topup: TopupSettings;
  /** A refused or failed Buy (or an auto top-up set up where nothing is on sale), shown in the Buy section. */
  buyError?: string;
  topupError?: string;
  topupInput?: TopupInput;
}

const credits = (n: number) => `${n} credit${n === 1 ? '' : 's'}`;

/** Packs differ in size, so a price per 1,000 credits is what compares them. */
const perThousand = (pack: Pack, currency: string) => formatMoney(Math.round((pack.amount * 1000) / pack.credits), currency);

const packPrice = (pack: Pack, currency: string) => formatMoney(pack.amount, currency);

function packCard(view: BuyView, pack: Pack): Html {
  const price = packPrice(pack, view.offer.currency);
  return html`<li class="pack">
    <form method="post" action="/dashboard/credits/buy">
      ${csrfField(view.viewer.csrfToken)}<input type="hidden" name="credits" value="${pack.credits}">
      <p class="pack-credits"><strong>${pack.credits}</strong> ${pack.credits === 1 ? 'credit' : 'credits'}</p>
      <p class="pack-price">${price}</p>
      <p class="muted pack-rate">${perThousand(pack, view.offer.currency)} per 1,000 credits</p>
      <button type="submit" aria-label="Buy ${credits(pack.credits)} for ${price}">Buy</button>
    </form>
  </li>`;
}

/** The packs on sale, each with a Buy button that leads to Stripe's checkout page; or, with nothing on sale, whom to ask. */
export function buySection(view: BuyView): Html {
  const { offer } = view;
  if (offer.packs.length === 0) {
    return html`<section class="card" aria-labelledby="get-credits">
  <h2 id="get-credits">Getting credits</h2>
  ${errorBox(view.buyError ?? view.topupError)}
  <p>This service does not sell credits online. ${view.howToGet}</p>
</section>`;
  }
  return html`<section class="card" aria-labelledby="buy">
  <h2 id="buy">Buy credits</h2>
  ${errorBox(view.buyError)}
  <ul class="packs">${offer.packs.map((pack) => packCard(view, pack))}</ul>
  <p class="muted">Buy takes you to Stripe's checkout page to pay. The credits are added as soon as Stripe confirms the
  payment, usually within seconds.</p>
</section>`;
}

function topupState(view: BuyView): Html {
  const { topup, offer } = view;
  if (!topup) return html`<p><strong>Off.</strong> Nothing is bought unless you set it up below.</p>`;
  const pack = offer.packs.find((candidate) => candidate.credits === topup.packCredits);
  const buys = pack ? `${credits(pack.credits)} for ${packPrice(pack, offer.currency)}` : credits(topup.packCredits);
  const month = html`This month: ${topup.thisMonth} of ${topup.monthlyMax} top-ups (the count restarts ${when(topup.resetsAt)}).`;
  const lastFailure = topup.lastFailure ? html`<p class="alert alert-error">Last failure: ${topup.lastFailure}</p>` : null;
  if (topup.enabled) {
    return html`<p><strong>On:</strong> when the balance you can spend falls below ${credits(topup.threshold)}, buys
    ${buys}, at most ${topup.monthlyMax} times a month. ${month}</p>`;
  }
  // A failed charge switched it off and dropped the card: it is never charged again.
  if (topup.lastFailure) {
    return html`<p><strong>Off:</strong> the saved card failed, so it switched itself off and will not charge that card again.
    Save the form to give a card that works at Stripe's checkout page; auto top-up comes back on when that pack is paid.</p>${lastFailure}`;
  }
  if (!topup.cardSaved) {
    return html`<p><strong>Waiting for a card:</strong> auto top-up comes on once the pack is paid for at Stripe's checkout
    page, which saves the card. Save the form again to go back there.</p>`;
  }
  return html`<p><strong>Off.</strong> Save the form to turn it on again.</p>`;
}

function topupInput(view: BuyView): TopupInput {
  if (view.topupInput) return view.topupInput;
  const { topup, offer } = view;
  // Nothing is saved until the form is sent: these only fill it in.
  return {
    threshold: topup ? String(topup.threshold) : '',
    pack: String(topup?.packCredits ?? offer.packs[0]!.credits),
    monthlyMax: String(topup?.monthlyMax ?? 2),
  };
}

/** "When the balance falls below T, buy pack P", at most M times a month: opt-in, off until saved with a card. */
export function autoTopupSection(view: BuyView): Html | null {
  const { topup, offer } = view;
  if (offer.packs.length === 0) return null;
  const input = topupInput(view);
  // On, or waiting for a Checkout: something to turn off. Off after a failed card is off already.
  const live = topup !== null && (topup.enabled || (!topup.cardSaved && topup.lastFailure === null));
  return html`<section class="card" aria-labelledby="auto-topup">
  <h2 id="auto-topup">Auto top-up</h2>
  <p>When the balance you can spend falls below the threshold, the pack is bought with the card saved at a checkout, once
  each time it falls below and at most the monthly maximum of times.</p>
  <div class="topup-state">
    <div>${topupState(view)}</div>
    ${live
      ? html`<form method="post" action="/dashboard/credits/auto-topup/off">
      ${csrfField(view.viewer.csrfToken)}<button type="submit" class="danger">Turn off auto top-up</button>
    </form>`
      : null}
  </div>
  ${errorBox(view.topupError)}
  <form method="post" action="/dashboard/credits/auto-topup" class="topup-form">
    ${csrfField(view.viewer.csrfToken)}
    <label>Balance threshold (credits)
      <input type="number" name="threshold" value="${input.threshold}" min="1" max="1000000000" step="1" inputmode="numeric" required></label>
    <label>Pack to buy
      <select name="pack">${offer.packs.map(
        (pack) => html`<option value="${pack.credits}"${String(pack.credits) === input.pack ? html` selected` : null}>${credits(pack.credits)}, ${packPrice(pack, offer.currency)}</option>`,
      )}</select></label>
    <label>At most (top-ups a month)
      <input type="number" name="monthly_max" value="${input.monthlyMax}" min="1" max="100" step="1" inputmode="numeric" required></label>
    <p class="muted topup-note">${topup?.cardSaved
      ? 'The card saved at your last checkout pays.'
      : topup?.lastFailure
        ? "The saved card failed and was dropped: saving takes you to Stripe's checkout page to buy the chosen pack once with a card that works, which is saved instead."
        : "No card is saved yet: saving takes you to Stripe's checkout page to buy the chosen pack once, which saves the card."}</p>
    <button type="submit">${topup?.cardSaved ? 'Save auto top-up' : topup?.lastFailure ? 'Save and replace the card' : 'Save and add a card'}</button>
  </form>
</section>`;
}

/**
 * Where Stripe sends the buyer back: until Stripe's webhook has credited the payment the page says so
 * and reloads itself every 2 seconds; then it shows what was added.
 */
export function paymentPage(view: { viewer: Viewer; payment: PaymentView; balance: number }): Html {
  const { payment, balance } = view;
  const what = html`${credits(payment.credits)} for ${payment.price}`;
  const back = html`<p><a href="/dashboard/credits">Back to Credits</a></p>`;
  if (payment.credited) {
    return page({
      title: 'Credits added',
      viewer: view.viewer,
      section: 'credits',
      body: html`<p class="alert alert-ok" role="status">${credits(payment.credits)} added. Balance: ${credits(balance)}.</p>
<p class="muted wrap-anywhere">Paid ${payment.price}${payment.paid_at ? html` on ${when(payment.paid_at)}` : null}. Payment <code>${payment.id}</code>.</p>
${back}`,
    });
  }
  if (payment.status === 'failed' || payment.status === 'expired') {
    return page({
      title: 'Payment not completed',
      viewer: view.viewer,
      section: 'credits',
      body: html`<p class="alert alert-error" role="alert">The payment of ${what} ${payment.status === 'expired' ? 'lapsed unpaid' : 'did not go through'}; no credits were added.</p>
${back}`,
    });
  }
  return page({
    title: 'Thank you',
    viewer: view.viewer,
    section: 'credits',
    refreshSeconds: 2,
    body: html`<p class="alert alert-ok" role="status">Payment received — your credits appear in a moment.</p>
<p class="muted">${what}. This page refreshes itself until Stripe confirms the payment. Balance now: ${credits(balance)}.</p>
${back}`,
  });
}
