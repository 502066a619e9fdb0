// SPDX-License-Identifier: MIT
pragma solidity ^0.8.24;

import {BondingCurve} from "./BondingCurve.sol";
import {LaunchpadManager} from "./LaunchpadManager.sol";

/// @notice A local stand-in for four.meme's TokenManagerHelper3: the same selectors and
/// return tuples, quoting with the very library LaunchpadManager trades with.
contract LaunchpadHelper {
    struct Market {
        uint256 sold;
        uint256 maxFunds;
        uint256 feeRate;
        uint256 minFee;
    }

    LaunchpadManager public immutable TOKEN_MANAGER_2;

    constructor(LaunchpadManager tokenManager) {
        TOKEN_MANAGER_2 = tokenManager;
    }

    /// @notice All zeros (version 0) for a token this launchpad did not create.
    function getTokenInfo(
        address token
    )
        external
        view
        returns (
            uint256 version,
            address tokenManager,
            address quote,
            uint256 lastPrice,
            uint256 tradingFeeRate,
            uint256 minTradingFee,
            uint256 launchTime,
            uint256 offers,
            uint256 maxOffers,
            uint256 funds,
            uint256 maxFunds,
            bool liquidityAdded
        )
    {
        LaunchpadManager.TokenState memory state = _state(token);
        if (state.creator == address(0)) return (0, address(0), address(0), 0, 0, 0, 0, 0, 0, 0, 0, false);
        version = state.version;
        tokenManager = address(TOKEN_MANAGER_2);
        maxFunds = TOKEN_MANAGER_2.graduationFunds();
        lastPrice = BondingCurve.priceAt(maxFunds, state.sold);
        tradingFeeRate = TOKEN_MANAGER_2._tradingFeeRate();
        minTradingFee = TOKEN_MANAGER_2.minTradingFee();
        launchTime = state.launchTime;
        offers = BondingCurve.CURVE_SUPPLY - state.sold;
        maxOffers = BondingCurve.CURVE_SUPPLY;
        funds = state.funds;
        liquidityAdded = state.liquidityAdded;
    }

    /// @notice tryBuy(token, 0, funds) prices spending `funds` BNB in total, fee included;
    /// tryBuy(token, amount, 0) prices exactly `amount` tokens. As four.meme's trade guide
    /// (§2.2) says, send `amountMsgValue` as msg.value and, to buyTokenAMAP, `amountFunds` as
    /// its `funds`; `estimatedCost` is the gross curve cost and `estimatedFee` the fee on top.
    function tryBuy(
        address token,
        uint256 amount,
        uint256 funds
    )
        external
        view
        returns (
            address tokenManager,
            address quote,
            uint256 estimatedAmount,
            uint256 estimatedCost,
            uint256 estimatedFee,
            uint256 amountMsgValue,
            uint256 amountApproval,
            uint256 amountFunds
        )
    {
        Market memory m = _market(token);
        BondingCurve.Buy memory buy;
        if (amount == 0) {
            buy = BondingCurve.buyWithFunds(m.maxFunds, m.sold, funds, m.feeRate, m.minFee);
            amountMsgValue = funds;
        } else {
            buy = BondingCurve.buyAmount(m.maxFunds, m.sold, amount, m.feeRate, m.minFee);
            amountMsgValue = buy.cost + buy.fee;
        }
        tokenManager = address(TOKEN_MANAGER_2);
        estimatedAmount = buy.amount;
        estimatedCost = buy.cost;
        estimatedFee = buy.fee;
        amountFunds = amountMsgValue;
        (quote, amountApproval) = (address(0), 0);
    }

    /// @notice `funds` is what the seller receives, already net of the trading fee `fee`
    /// (four.meme's trade guide §2.3): the curve's gross quote is `funds + fee`.
    function trySell(
        address token,
        uint256 amount
    ) external view returns (address tokenManager, address quote, uint256 funds, uint256 fee) {
        Market memory m = _market(token);
        uint256 gross;
        (gross, fee) = BondingCurve.sell(m.maxFunds, m.sold, amount, m.feeRate, m.minFee);
        funds = gross - fee;
        tokenManager = address(TOKEN_MANAGER_2);
        quote = address(0);
    }

    function _state(address token) private view returns (LaunchpadManager.TokenState memory state) {
        (
            state.creator,
            state.launchTime,
            state.sold,
            state.funds,
            state.liquidityAdded,
            state.template,
            state.version
        ) = TOKEN_MANAGER_2.tokens(token);
    }

    function _market(address token) private view returns (Market memory m) {
        LaunchpadManager.TokenState memory state = _state(token);
        require(state.creator != address(0) && state.version == 2, "Token");
        require(!state.liquidityAdded, "TO");
        m.sold = state.sold;
        m.maxFunds = TOKEN_MANAGER_2.graduationFunds();
        m.feeRate = TOKEN_MANAGER_2._tradingFeeRate();
        m.minFee = TOKEN_MANAGER_2.minTradingFee();
    }
}
