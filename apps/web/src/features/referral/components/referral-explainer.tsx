import { usePublicConfig } from "../../../lib/public-config.ts";
import { formatUsd } from "../../../lib/usd.ts";

/** How the program pays, from GET /api/config, every amount with its unit. */
export function ReferralExplainer() {
  const config = usePublicConfig().data;
  if (!config) return <p className="text-dim">Share your link: friends save, you earn.</p>;
  const friendPays = Math.max(0, config.price - config.referralDiscount);
  const share = `${Math.round(config.referralLaunchFeeShare * 1000) / 10}%`;
  return (
    <div className="flex flex-col gap-2 text-dim" data-testid="referral-explainer">
      <p>
        Share your link. A friend who buys an access key with your code gets{" "}
        <span className="text-ok">{formatUsd(config.referralDiscount)} off</span>: they pay{" "}
        <span className="text-fg">{formatUsd(friendPays)}</span> instead of{" "}
        <span className="text-fg">{formatUsd(config.price)}</span> (prices in {config.priceCurrency}
        , paid in BNB).
      </p>
      <p>
        You earn <span className="text-accent">{formatUsd(config.referralReward)}</span> in BNB for
        every key bought with your code, and <span className="text-accent">{share}</span> of every
        launch fee ({config.launchFee} BNB) your referred users pay. Rewards add up here; claim them
        to any BNB address.
      </p>
    </div>
  );
}
