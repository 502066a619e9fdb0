import { formatUsd } from "../../../lib/usd.ts";
import type { KeyPurchase } from "../utils/key-purchase.ts";

/** The price in USD, the referral discount when a code applied, and the BNB it comes to. */
export function KeyPriceSummary({ purchase }: { purchase: KeyPurchase }) {
  const row = "flex justify-between gap-4";
  return (
    <dl className="flex flex-col gap-1 rounded-sm border border-line bg-ink px-3 py-2 text-sm">
      <div className={row}>
        <dt className="text-dim">Access key</dt>
        <dd className="tabular-nums text-fg" data-testid="key-price">
          {formatUsd(purchase.priceUsd)}
        </dd>
      </div>
      {purchase.discountUsd > 0 && (
        <div className={row}>
          <dt className="text-dim">
            Referral discount
            {purchase.referralCode && (
              <span className="text-accent"> ({purchase.referralCode})</span>
            )}
          </dt>
          <dd className="tabular-nums text-ok" data-testid="key-discount">
            −{formatUsd(purchase.discountUsd)}
          </dd>
        </div>
      )}
      <div className={`${row} border-t border-line pt-1`}>
        <dt className="text-dim">You pay</dt>
        <dd className="tabular-nums text-fg" data-testid="key-total">
          {formatUsd(purchase.amountUsd)} = {purchase.paymentAmount} BNB
        </dd>
      </div>
      <p className="text-xs text-faint">
        at {formatUsd(purchase.bnbUsdRate)} per BNB
        {purchase.rateSource === "chainlink" ? " (Chainlink BNB/USD)" : ""}, fixed for this payment
      </p>
    </dl>
  );
}
