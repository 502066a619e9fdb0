// SPDX-License-Identifier: MIT
pragma solidity ^0.8.24;

import {Math} from "@openzeppelin/contracts/utils/math/Math.sol";

/// @notice The launchpad's pricing, shared by LaunchpadManager (which trades) and
/// LaunchpadHelper (which quotes), so a quote is exactly what the trade then does.
/// Mirrored line by line in src/curve.ts.
///
/// The curve is a constant product over virtual reserves, written as the BNB raised once
/// `sold` tokens have left the curve:
///   raisedAt(sold) = maxFunds * V * sold / (S * (S + V - sold))   (rounded down)
/// with S = 800M tokens on the curve and V = 273M virtual tokens. raisedAt(S) == maxFunds
/// exactly, and because the reserve is always raisedAt(sold), rounding never depends on the
/// path taken: no sequence of trades can create or lose a wei.
library BondingCurve {
    uint256 internal constant TOTAL_SUPPLY = 1_000_000_000 ether;
    uint256 internal constant CURVE_SUPPLY = 800_000_000 ether;
    uint256 internal constant LIQUIDITY_SUPPLY = 200_000_000 ether;
    uint256 internal constant VIRTUAL_SUPPLY = 273_000_000 ether;
    uint256 internal constant GWEI_UNIT = 1e9;
    uint256 internal constant FEE_DENOMINATOR = 10_000;

    struct Buy {
        uint256 amount;
        uint256 cost;
        uint256 fee;
        uint256 refund;
    }

    function raisedAt(uint256 maxFunds, uint256 sold) internal pure returns (uint256) {
        return
            Math.mulDiv(
                maxFunds * VIRTUAL_SUPPLY,
                sold,
                CURVE_SUPPLY * (CURVE_SUPPLY + VIRTUAL_SUPPLY - sold)
            );
    }

    /// @dev A `sold` position whose raisedAt does not exceed `target` (the real-valued
    /// inverse, rounded down).
    function soldAt(uint256 maxFunds, uint256 target) internal pure returns (uint256) {
        if (target >= maxFunds) return CURVE_SUPPLY;
        return
            Math.mulDiv(
                target * CURVE_SUPPLY,
                CURVE_SUPPLY + VIRTUAL_SUPPLY,
                maxFunds * VIRTUAL_SUPPLY + target * CURVE_SUPPLY
            );
    }

    /// @dev Marginal price in wei per whole token (1e18 units) at `sold`.
    function priceAt(uint256 maxFunds, uint256 sold) internal pure returns (uint256) {
        uint256 left = CURVE_SUPPLY + VIRTUAL_SUPPLY - sold;
        return
            Math.mulDiv(
                Math.mulDiv(maxFunds * VIRTUAL_SUPPLY, 1 ether, left),
                CURVE_SUPPLY + VIRTUAL_SUPPLY,
                CURVE_SUPPLY * left
            );
    }

    function tradingFee(uint256 amount, uint256 rate, uint256 minFee) internal pure returns (uint256) {
        uint256 fee = (amount * rate) / FEE_DENOMINATOR;
        return fee < minFee ? minFee : fee;
    }

    /// @dev Spend `funds` BNB in total, fee included. Below the curve's end the whole of
    /// `funds` is spent (what the tokens do not cost is the fee); a buy that fills the curve
    /// buys only what is left and refunds the rest.
    function buyWithFunds(
        uint256 maxFunds,
        uint256 sold,
        uint256 funds,
        uint256 rate,
        uint256 minFee
    ) internal pure returns (Buy memory buy) {
        uint256 reserved = Math.max((funds * rate) / (FEE_DENOMINATOR + rate), minFee);
        require(funds > reserved, "ZA");
        uint256 raised = raisedAt(maxFunds, sold);
        uint256 reachable = soldAt(maxFunds, raised + funds - reserved);
        require(reachable > sold, "ZA");
        buy.amount = reachable - sold;
        buy.amount -= buy.amount % GWEI_UNIT;
        require(buy.amount > 0, "ZA");
        buy.cost = raisedAt(maxFunds, sold + buy.amount) - raised;
        if (sold + buy.amount == CURVE_SUPPLY) {
            buy.fee = Math.min(tradingFee(buy.cost, rate, minFee), funds - buy.cost);
            buy.refund = funds - buy.cost - buy.fee;
        } else {
            buy.fee = funds - buy.cost;
        }
    }

    /// @dev Buy exactly `amount` tokens (capped at what is left on the curve).
    function buyAmount(
        uint256 maxFunds,
        uint256 sold,
        uint256 amount,
        uint256 rate,
        uint256 minFee
    ) internal pure returns (Buy memory buy) {
        require(amount > 0, "ZA");
        require(amount % GWEI_UNIT == 0, "GW");
        buy.amount = Math.min(amount, CURVE_SUPPLY - sold);
        buy.cost = raisedAt(maxFunds, sold + buy.amount) - raisedAt(maxFunds, sold);
        buy.fee = tradingFee(buy.cost, rate, minFee);
    }

    /// @dev Sell `amount` tokens back to the curve; the seller receives `proceeds - fee`. A sale
    /// whose proceeds do not exceed its fee reverts "SO" (order too small), as four.meme's does.
    function sell(
        uint256 maxFunds,
        uint256 sold,
        uint256 amount,
        uint256 rate,
        uint256 minFee
    ) internal pure returns (uint256 proceeds, uint256 fee) {
        require(amount > 0, "ZA");
        require(amount % GWEI_UNIT == 0, "GW");
        proceeds = raisedAt(maxFunds, sold) - raisedAt(maxFunds, sold - amount);
        fee = tradingFee(proceeds, rate, minFee);
        require(proceeds > fee, "SO");
    }
}
