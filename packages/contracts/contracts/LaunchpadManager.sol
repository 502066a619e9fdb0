// SPDX-License-Identifier: MIT
pragma solidity ^0.8.24;

import {Ownable} from "@openzeppelin/contracts/access/Ownable.sol";
import {IERC20} from "@openzeppelin/contracts/token/ERC20/IERC20.sol";
import {ECDSA} from "@openzeppelin/contracts/utils/cryptography/ECDSA.sol";
import {MessageHashUtils} from "@openzeppelin/contracts/utils/cryptography/MessageHashUtils.sol";
import {ReentrancyGuard} from "@openzeppelin/contracts/utils/ReentrancyGuard.sol";
import {BondingCurve} from "./BondingCurve.sol";
import {IUniswapV2Factory, IUniswapV2Pair, IUniswapV2Router02, IWETH} from "./interfaces/IUniswapV2.sol";
import {LaunchToken} from "./LaunchToken.sol";

/// @notice A local stand-in for four.meme's TokenManager2: the same function selectors,
/// events and revert codes, a bonding curve that graduates to a Uniswap V2 pair.
///
/// Revert codes: "Signer" (args not signed by the launch signer), "Creator" (sender is not
/// the args' creator), "Request" (request id used before), "Value" (msg.value is not what the
/// call requires), "Token" (not a token of this launchpad), "TO" (trading over, or not open
/// yet), "ZA" (zero amount), "GW" (amount not a multiple of 1 gwei), "Slippage", "More BNB",
/// "FR" (a router sell's fee rate above 5%), "Send" (a BNB transfer failed).
contract LaunchpadManager is Ownable, ReentrancyGuard {
    struct TokenState {
        address creator;
        uint256 launchTime;
        uint256 sold;
        uint256 funds;
        bool liquidityAdded;
    }

    struct CreateArgs {
        string name;
        string symbol;
        uint256 launchTime;
        uint256 requestId;
        uint256 preSale;
        address creator;
    }

    address private constant DEAD = 0x000000000000000000000000000000000000dEaD;
    uint256 public constant MAX_TRADING_FEE_RATE = 1_000;
    /// @notice The router sell's fee cap, basis points: 5%.
    uint256 public constant MAX_ROUTER_FEE_RATE = 500;

    IUniswapV2Router02 public immutable router;
    IUniswapV2Factory public immutable dexFactory;
    address public immutable weth;
    /// @notice BNB the curve raises when all of its 800M tokens are sold ("maxFunds").
    uint256 public immutable graduationFunds;

    address public launchSigner;
    uint256 public launchFee = 0.01 ether;
    /// @notice Basis points: 100 is 1%.
    uint256 public tradingFeeRate = 100;
    uint256 public minTradingFee = 0.0001 ether;
    /// @notice Launch and trading fees not yet withdrawn.
    uint256 public feesAccrued;
    mapping(uint256 requestId => bool) public requestIdUsed;
    mapping(address token => TokenState) public tokens;

    event TokenCreate(
        address creator,
        address token,
        uint256 requestId,
        string name,
        string symbol,
        uint256 totalSupply,
        uint256 launchTime,
        uint256 launchFee
    );
    event TokenPurchase(
        address token,
        address account,
        uint256 price,
        uint256 amount,
        uint256 cost,
        uint256 fee,
        uint256 offers,
        uint256 funds
    );
    event TokenSale(
        address token,
        address account,
        uint256 price,
        uint256 amount,
        uint256 cost,
        uint256 fee,
        uint256 offers,
        uint256 funds
    );
    event TradeStop(address token);
    event LiquidityAdded(address base, uint256 offers, address quote, uint256 funds);

    constructor(address launchSigner_, IUniswapV2Router02 router_, uint256 graduationFunds_) Ownable(msg.sender) {
        require(graduationFunds_ > 0 && graduationFunds_ <= 1e30, "MaxFunds");
        launchSigner = launchSigner_;
        router = router_;
        dexFactory = IUniswapV2Factory(router_.factory());
        weth = router_.WETH();
        graduationFunds = graduationFunds_;
    }

    /// @notice args = abi.encode(name, symbol, launchTime, requestId, preSale, creator), signed
    /// by the launch signer (EIP-191 personal sign of keccak256(abi.encode(chainid, this,
    /// keccak256(args)))). msg.value = launchFee + preSale; preSale is the creator's first buy.
    function createToken(bytes calldata args, bytes calldata signature) external payable nonReentrant {
        CreateArgs memory a = _verifiedArgs(args, signature);
        require(msg.sender == a.creator, "Creator");
        require(!requestIdUsed[a.requestId], "Request");
        require(msg.value == launchFee + a.preSale, "Value");
        requestIdUsed[a.requestId] = true;
        feesAccrued += launchFee;
        // CREATE2 keyed by the request id (used once): the address depends on the args alone,
        // not on how many launches landed before this one, so a bundle's buys, signed for the
        // address its simulation gave, buy this token whatever lands first.
        address token = address(
            new LaunchToken{salt: bytes32(a.requestId)}(a.name, a.symbol, dexFactory, weth)
        );
        tokens[token].creator = a.creator;
        tokens[token].launchTime = a.launchTime;
        emit TokenCreate(
            a.creator,
            token,
            a.requestId,
            a.name,
            a.symbol,
            BondingCurve.TOTAL_SUPPLY,
            a.launchTime,
            launchFee
        );
        if (a.preSale > 0) _buyWithFunds(token, a.creator, a.preSale, 0);
    }

    /// @notice Spend exactly `funds` (= msg.value, fee included) on as many tokens as it buys.
    function buyTokenAMAP(address token, uint256 funds, uint256 minAmount) external payable nonReentrant {
        _buyTokenAMAP(token, msg.sender, funds, minAmount);
    }

    function buyTokenAMAP(
        address token,
        address to,
        uint256 funds,
        uint256 minAmount
    ) external payable nonReentrant {
        _buyTokenAMAP(token, to, funds, minAmount);
    }

    /// @notice Buy exactly `amount` tokens; msg.value above cost + fee is refunded.
    function buyToken(address token, uint256 amount, uint256 maxFunds) external payable nonReentrant {
        TokenState storage state = _openState(token);
        BondingCurve.Buy memory buy = BondingCurve.buyAmount(
            graduationFunds,
            state.sold,
            amount,
            tradingFeeRate,
            minTradingFee
        );
        uint256 total = buy.cost + buy.fee;
        require(total <= maxFunds, "Slippage");
        require(msg.value >= total, "More BNB");
        buy.refund = msg.value - total;
        _settleBuy(token, msg.sender, buy);
    }

    /// @notice Sell `amount` tokens (approved to this contract) for proceeds minus the fee.
    function sellToken(address token, uint256 amount) external nonReentrant {
        _sell(token, amount, 0, 0, address(0));
    }

    /// @notice four.meme's router variant: sells as above, then pays `feeRate` (basis points,
    /// at most 5%) of what the sale fetches to `feeRecipient` and the rest to the seller,
    /// reverting "Slippage" when the seller's part is below `minFunds`. `origin` is a
    /// referrer tag four.meme records; it changes nothing here.
    function sellToken(
        uint256 origin,
        address token,
        uint256 amount,
        uint256 minFunds,
        uint256 feeRate,
        address feeRecipient
    ) external nonReentrant {
        origin;
        _sell(token, amount, minFunds, feeRate, feeRecipient);
    }

    function _sell(
        address token,
        uint256 amount,
        uint256 minFunds,
        uint256 feeRate,
        address feeRecipient
    ) private {
        require(feeRate <= MAX_ROUTER_FEE_RATE, "FR");
        TokenState storage state = _openState(token);
        (uint256 proceeds, uint256 fee) = BondingCurve.sell(
            graduationFunds,
            state.sold,
            amount,
            tradingFeeRate,
            minTradingFee
        );
        uint256 routerFee = ((proceeds - fee) * feeRate) / 10_000;
        require(proceeds - fee - routerFee >= minFunds, "Slippage");
        state.sold -= amount;
        state.funds -= proceeds;
        feesAccrued += fee;
        IERC20(token).transferFrom(msg.sender, address(this), amount);
        emit TokenSale(
            token,
            msg.sender,
            BondingCurve.priceAt(graduationFunds, state.sold),
            amount,
            proceeds,
            fee,
            BondingCurve.CURVE_SUPPLY - state.sold,
            state.funds
        );
        _sendBnb(feeRecipient, routerFee);
        _sendBnb(msg.sender, proceeds - fee - routerFee);
    }

    function setLaunchSigner(address launchSigner_) external onlyOwner {
        launchSigner = launchSigner_;
    }

    function setLaunchFee(uint256 launchFee_) external onlyOwner {
        launchFee = launchFee_;
    }

    function setTradingFee(uint256 rate, uint256 minFee) external onlyOwner {
        require(rate <= MAX_TRADING_FEE_RATE, "Rate");
        tradingFeeRate = rate;
        minTradingFee = minFee;
    }

    function withdrawFees(address payable to) external onlyOwner nonReentrant {
        uint256 amount = feesAccrued;
        feesAccrued = 0;
        _sendBnb(to, amount);
    }

    function _verifiedArgs(
        bytes calldata args,
        bytes calldata signature
    ) private view returns (CreateArgs memory a) {
        bytes32 digest = MessageHashUtils.toEthSignedMessageHash(
            keccak256(abi.encode(block.chainid, address(this), keccak256(args)))
        );
        (address signer, ECDSA.RecoverError error, ) = ECDSA.tryRecover(digest, signature);
        require(error == ECDSA.RecoverError.NoError && signer == launchSigner, "Signer");
        (a.name, a.symbol, a.launchTime, a.requestId, a.preSale, a.creator) = abi.decode(
            args,
            (string, string, uint256, uint256, uint256, address)
        );
    }

    function _openState(address token) private view returns (TokenState storage state) {
        state = tokens[token];
        require(state.creator != address(0), "Token");
        require(!state.liquidityAdded && block.timestamp >= state.launchTime, "TO");
    }

    function _buyTokenAMAP(address token, address to, uint256 funds, uint256 minAmount) private {
        require(msg.value == funds, "Value");
        _openState(token);
        _buyWithFunds(token, to, funds, minAmount);
    }

    function _buyWithFunds(address token, address to, uint256 funds, uint256 minAmount) private {
        BondingCurve.Buy memory buy = BondingCurve.buyWithFunds(
            graduationFunds,
            tokens[token].sold,
            funds,
            tradingFeeRate,
            minTradingFee
        );
        require(buy.amount >= minAmount, "Slippage");
        _settleBuy(token, to, buy);
    }

    function _settleBuy(address token, address to, BondingCurve.Buy memory buy) private {
        TokenState storage state = tokens[token];
        state.sold += buy.amount;
        state.funds += buy.cost;
        feesAccrued += buy.fee;
        IERC20(token).transfer(to, buy.amount);
        emit TokenPurchase(
            token,
            to,
            BondingCurve.priceAt(graduationFunds, state.sold),
            buy.amount,
            buy.cost,
            buy.fee,
            BondingCurve.CURVE_SUPPLY - state.sold,
            state.funds
        );
        if (state.sold == BondingCurve.CURVE_SUPPLY) _graduate(token, state);
        _sendBnb(msg.sender, buy.refund);
    }

    /// @dev The curve is full: stop trading here and seed the DEX with 200M tokens and the
    /// raised BNB; the LP tokens are burnt to 0x…dEaD.
    function _graduate(address token, TokenState storage state) private {
        state.liquidityAdded = true;
        emit TradeStop(token);
        LaunchToken(token).openDex();
        uint256 funds = state.funds;
        address pair = dexFactory.getPair(token, weth);
        if (pair == address(0)) pair = dexFactory.createPair(token, weth);
        (uint112 reserve0, uint112 reserve1, ) = IUniswapV2Pair(pair).getReserves();
        if (reserve0 == 0 && reserve1 == 0) {
            IERC20(token).approve(address(router), BondingCurve.LIQUIDITY_SUPPLY);
            router.addLiquidityETH{value: funds}(
                token,
                BondingCurve.LIQUIDITY_SUPPLY,
                BondingCurve.LIQUIDITY_SUPPLY,
                funds,
                DEAD,
                block.timestamp
            );
        } else {
            // Someone seeded the pair with WETH and synced it before graduation (tokens cannot
            // be sent there until now). The router refuses a one-sided pool, so mint directly:
            // the seed becomes a gift to the pool instead of blocking graduation forever.
            IWETH(weth).deposit{value: funds}();
            IWETH(weth).transfer(pair, funds);
            IERC20(token).transfer(pair, BondingCurve.LIQUIDITY_SUPPLY);
            IUniswapV2Pair(pair).mint(DEAD);
        }
        emit LiquidityAdded(token, BondingCurve.LIQUIDITY_SUPPLY, address(0), funds);
    }

    function _sendBnb(address to, uint256 amount) private {
        if (amount == 0) return;
        (bool sent, ) = to.call{value: amount}("");
        require(sent, "Send");
    }
}
