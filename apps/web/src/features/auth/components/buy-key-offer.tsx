import { Button } from "../../../components/ui/button.tsx";
import { usePublicConfig } from "../../../lib/public-config.ts";
import { readReferralCode } from "../../../lib/referral-code.ts";
import { formatUsd } from "../../../lib/usd.ts";

/**
 * Beside "Get Free Access": buy a key, at the config's price in USD (paid in BNB), less the
 * referral discount when a `?referral=` code is remembered.
 */
export function BuyKeyOffer({ onBuy }: { onBuy: () => void }) {
  const config = usePublicConfig().data;
  const code = readReferralCode();
  const discounted = config && code ? Math.max(0, config.price - config.referralDiscount) : null;
  return (
    <div className="flex flex-col items-center gap-1">
      <Button variant="secondary" onClick={onBuy} className="w-full">
        Buy Access Key
        {config && (
          <span className="tabular-nums text-dim" data-testid="key-offer-price">
            {discounted === null ? (
              formatUsd(config.price)
            ) : (
              <>
                <s className="text-faint">{formatUsd(config.price)}</s> {formatUsd(discounted)}
              </>
            )}
          </span>
        )}
      </Button>
      <span className="text-xs text-faint">
        {code && config ? `Referral code ${code}: ${formatUsd(config.referralDiscount)} off. ` : ""}
        Priced in USD, paid in BNB at the current rate.
      </span>
    </div>
  );
}
