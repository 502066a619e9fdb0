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
import {TaxToken, TaxTokenFactory} from "./TaxToken.sol";

/// @notice A local stand-in for four.meme's TokenManager2: the same function selectors,
/// events and revert codes, a bonding curve that graduates to a Uniswap V2 pair.
///
/// Revert codes: "Signer" (args not signed by the launch signer), "Creator" (sender is not
/// the args' creator), "Request" (request id used before), "Value" (msg.value is not what the
/// call requires), "Token" (not a token this manager trades), "TO" (trading over, or not open
/// yet), "ZA" (zero amount), "GW" (amount not a multiple of 1 gwei), "Slippage", "More BNB",
/// "FR" (a router sell's fee rate above 5%), "SO" (a sale's curve quote no more than its fee),
/// "A" (an X Mode token bought with a public buy), "Send" (a BNB transfer failed).
contract LaunchpadManager is Ownable, ReentrancyGuard {
    struct TokenState {
        address creator;
        uint256 launchTime;
        uint256 sold;
        uint256 funds;
        bool liquidityAdded;
        /// @notice four.meme's packed token kind: creator type in bits 10-15, X Mode in bit 16.
        uint256 template;
        /// @notice 2 for this manager's tokens; 1 marks a TokenManager V1 token (test hook).
        uint256 version;
    }

    /// @notice ITokenManager2.TokenInfo, field for field (K and T, the curve parameters of
    /// four.meme's own math, are 0 here; status is 3, COMPLETED, once graduated, else 0).
    struct TokenInfo {
        address base;
        address quote;
        uint256 template;
        uint256 totalSupply;
        uint256 maxOffers;
        uint256 maxRaising;
        uint256 launchTime;
        uint256 offers;
        uint256 funds;
        uint256 lastPrice;
        uint256 K;
        uint256 T;
        uint256 status;
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
    /// @notice `template & X_MODE`: an exclusive token, bought only through four.meme's signed buy.
    uint256 public constant X_MODE = 0x10000;
    uint256 private constant STATUS_COMPLETED = 3;
    /// @notice The template of the tax tokens createToken makes: creator type 5, TaxToken.
    uint256 public constant TAX_TOKEN_TEMPLATE = 5 << 10;
    /// @dev A tax token's args carry the TaxToken config after `creator`: their head is
    /// 13 words, so the name's offset (their first word) is 0x1a0 instead of 0xc0.
    uint256 private constant TAX_ARGS_NAME_OFFSET = 13 * 32;

    IUniswapV2Router02 public immutable router;
    IUniswapV2Factory public immutable dexFactory;
    address public immutable weth;
    /// @notice Where createToken's tax tokens are deployed from.
    TaxTokenFactory public immutable taxTokenFactory;
    /// @notice BNB the curve raises when all of its 800M tokens are sold ("maxFunds").
    uint256 public immutable graduationFunds;

    address public launchSigner;
    /// @notice The creation fee, four.meme's `_launchFee()`.
    uint256 public _launchFee = 0.01 ether;
    /// @notice Basis points (100 is 1%), four.meme's `_tradingFeeRate()`.
    uint256 public _tradingFeeRate = 100;
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
        taxTokenFactory = new TaxTokenFactory();
    }

    /// @notice args = abi.encode(name, symbol, launchTime, requestId, preSale, creator), or for a
    /// tax token abi.encode(name, symbol, launchTime, requestId, preSale, creator, (feeRate,
    /// rateFounder, rateHolder, rateBurn, rateLiquidity, founder, minShare)) (TaxToken.Config:
    /// feeRate in basis points, rates in percent summing to 100, minShare in token wei), signed
    /// by the launch signer (EIP-191 personal sign of keccak256(abi.encode(chainid, this,
    /// keccak256(args)))). msg.value must cover _launchFee + preSale + preSale ×
    /// _tradingFeeRate / 10000 (four.meme's create-guide); what it sends above that is refunded
    /// in this transaction. preSale is the creator's first buy, spent on the curve with the
    /// trading fee on top.
    function createToken(bytes calldata args, bytes calldata signature) external payable nonReentrant {
        CreateArgs memory a = _verifiedArgs(args, signature);
        require(msg.sender == a.creator, "Creator");
        require(!requestIdUsed[a.requestId], "Request");
        uint256 preSaleFee = (a.preSale * _tradingFeeRate) / BondingCurve.FEE_DENOMINATOR;
        uint256 required = _launchFee + a.preSale + preSaleFee;
        require(msg.value >= required, "Value");
        requestIdUsed[a.requestId] = true;
        feesAccrued += _launchFee;
        // CREATE2 keyed by the request id (used once): the address depends on the args alone,
        // not on how many launches landed before this one, so a bundle's buys, signed for the
        // address its simulation gave, buy this token whatever lands first.
        address token = _deployToken(a, args);
        tokens[token].creator = a.creator;
        tokens[token].launchTime = a.launchTime;
        tokens[token].version = 2;
        emit TokenCreate(
            a.creator,
            token,
            a.requestId,
            a.name,
            a.symbol,
            BondingCurve.TOTAL_SUPPLY,
            a.launchTime,
            _launchFee
        );
        if (a.preSale > 0) _buyWithFunds(token, a.creator, a.preSale + preSaleFee, 0);
        _sendBnb(msg.sender, msg.value - required);
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
        TokenState storage state = _buyableState(token);
        BondingCurve.Buy memory buy = BondingCurve.buyAmount(
            graduationFunds,
            state.sold,
            amount,
            _tradingFeeRate,
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
    /// at most 5%) of what the sale fetches after the trading fee to `feeRecipient` and the
    /// rest to the seller. It reverts "Slippage" when the sale's gross curve quote (before the
    /// trading fee and the router's cut) is below `minFunds`, as four.meme's trade guide says
    /// of TokenManager2. `origin` is a referrer tag four.meme records; it changes nothing here.
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
            _tradingFeeRate,
            minTradingFee
        );
        require(proceeds >= minFunds, "Slippage");
        uint256 routerFee = ((proceeds - fee) * feeRate) / 10_000;
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
        _launchFee = launchFee_;
    }

    function setTradingFee(uint256 rate, uint256 minFee) external onlyOwner {
        require(rate <= MAX_TRADING_FEE_RATE, "Rate");
        _tradingFeeRate = rate;
        minTradingFee = minFee;
    }

    /// @notice Test hook, owner only: gives a token of this launchpad another kind, so the
    /// local chain can hold what four.meme's has and our API never signs: an X Mode token
    /// (`template & X_MODE`), another creator type (`template >> 10 & 0x3F`), or a TokenManager
    /// V1 token (`version` 1: the helper reports version 1 and this manager stops trading it).
    function setTokenKind(address token, uint256 template, uint256 version) external onlyOwner {
        TokenState storage state = tokens[token];
        require(state.creator != address(0), "Token");
        require(version == 1 || version == 2, "Version");
        state.template = template;
        state.version = version;
    }

    /// @notice four.meme's `_tokenInfos(token)`: all zeros for a token this launchpad did not
    /// create.
    function _tokenInfos(address token) external view returns (TokenInfo memory info) {
        TokenState storage state = tokens[token];
        if (state.creator == address(0)) return info;
        info.base = token;
        info.template = state.template;
        info.totalSupply = BondingCurve.TOTAL_SUPPLY;
        info.maxOffers = BondingCurve.CURVE_SUPPLY;
        info.maxRaising = graduationFunds;
        info.launchTime = state.launchTime;
        info.offers = BondingCurve.CURVE_SUPPLY - state.sold;
        info.funds = state.funds;
        info.lastPrice = BondingCurve.priceAt(graduationFunds, state.sold);
        info.status = state.liquidityAdded ? STATUS_COMPLETED : 0;
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
        // The six leading fields read the same from either form (a tax token's args have the
        // config after them): the strings' offsets are absolute within the args.
        (a.name, a.symbol, a.launchTime, a.requestId, a.preSale, a.creator) = abi.decode(
            args,
            (string, string, uint256, uint256, uint256, address)
        );
    }

    /// @dev A LaunchToken, or a TaxToken (template TAX_TOKEN_TEMPLATE) when the args carry its
    /// config; CREATE2 keyed by the request id either way.
    function _deployToken(CreateArgs memory a, bytes calldata args) private returns (address token) {
        if (args.length < 32 || uint256(bytes32(args[:32])) != TAX_ARGS_NAME_OFFSET)
            return address(new LaunchToken{salt: bytes32(a.requestId)}(a.name, a.symbol, dexFactory, weth));
        (, , , , , , TaxToken.Config memory tax) = abi.decode(
            args,
            (string, string, uint256, uint256, uint256, address, TaxToken.Config)
        );
        token = taxTokenFactory.deploy(bytes32(a.requestId), a.name, a.symbol, router, tax);
        tokens[token].template = TAX_TOKEN_TEMPLATE;
    }

    function _openState(address token) private view returns (TokenState storage state) {
        state = tokens[token];
        require(state.creator != address(0) && state.version == 2, "Token");
        require(!state.liquidityAdded && block.timestamp >= state.launchTime, "TO");
    }

    /// @dev An X Mode token is bought only through four.meme's signed buy, which this
    /// launchpad does not have: its public buys revert "A" as four.meme's do.
    function _buyableState(address token) private view returns (TokenState storage state) {
        state = _openState(token);
        require(state.template & X_MODE == 0, "A");
    }

    function _buyTokenAMAP(address token, address to, uint256 funds, uint256 minAmount) private {
        require(msg.value == funds, "Value");
        _buyableState(token);
        _buyWithFunds(token, to, funds, minAmount);
    }

    function _buyWithFunds(address token, address to, uint256 funds, uint256 minAmount) private {
        BondingCurve.Buy memory buy = BondingCurve.buyWithFunds(
            graduationFunds,
            tokens[token].sold,
            funds,
            _tradingFeeRate,
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
