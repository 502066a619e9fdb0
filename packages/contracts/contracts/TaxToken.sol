// SPDX-License-Identifier: MIT
pragma solidity ^0.8.24;

import {ERC20} from "@openzeppelin/contracts/token/ERC20/ERC20.sol";
import {IUniswapV2Factory, IUniswapV2Router02, IWETH} from "./interfaces/IUniswapV2.sol";
import {BondingCurve} from "./BondingCurve.sol";

/// @notice A model of four.meme's classic TaxToken (creator type 5), as its tax guide
/// (fourmeme-docs docs/tax-guide.md) describes it:
/// - §4: `feeRate` in basis points, taken as `amount * feeRate / 10000` of the tokens of a buy
///   or sell on the token's DEX pair (a transfer from or to the pair). On the bonding curve the
///   tax guide taxes only TaxToken8/9 (§1, §5), so curve trades are not taxed here.
/// - §4: the tax is allocated `rateFounder` / `rateHolder` / `rateBurn` / `rateLiquidity`
///   percent (summing to 100) once `feeAccumulated` reaches `minDispatch`: burnt (sent to
///   0x…dEaD), added to the pair's liquidity (half sold, LP to 0x…dEaD), and the founder's and
///   the holders' shares sold for the quote (WBNB): the founder's sent to `founder`, the
///   holders' credited per share (§7), claimed with `claimFee`. `FeeDispatched` (§8).
/// - §7: a holder's share is its balance when at least `minShare` (wei), else 0; `claimableFee`
///   is stored claimable plus what `feePerShare` accrued since.
/// The dispatch runs on a transfer that does not come from the pair (a sell, before its own
/// tax), never inside a buy, whose pair is locked. How four.meme's own token sells its tax is
/// not published (§10.7); this is one way that keeps the documented getters true.
/// Until the launchpad opens the DEX no tokens can reach the pair (as LaunchToken).
contract TaxToken is ERC20 {
    address private constant DEAD = 0x000000000000000000000000000000000000dEaD;
    uint256 private constant PRECISION = 1e36;

    address public immutable launchpad;
    IUniswapV2Router02 private immutable router;
    IUniswapV2Factory private immutable dexFactory;
    /// @notice The quote rewards are paid in: WBNB for a BNB raise (§4).
    address public immutable quote;
    address public immutable founder;
    /// @notice Basis points: 500 is 5%.
    uint256 public immutable feeRate;
    uint256 public immutable rateFounder;
    uint256 public immutable rateHolder;
    uint256 public immutable rateBurn;
    uint256 public immutable rateLiquidity;
    /// @notice Tokens (wei) of tax gathered before a dispatch runs.
    uint256 public immutable minDispatch;
    /// @notice The least balance (wei) that earns holder rewards.
    uint256 public immutable minShare;

    bool public dexOpen;
    address private _pair;
    bool private _dispatching;

    struct UserInfo {
        uint256 share;
        uint256 rewardDebt;
        uint256 claimable;
        uint256 claimed;
    }

    mapping(address account => UserInfo) public userInfo;
    uint256 public totalShares;
    uint256 public feePerShare;
    /// @notice Tax tokens held here, not yet dispatched.
    uint256 public feeAccumulated;
    /// @notice Tax tokens dispatched so far.
    uint256 public feeDispatched;
    /// @notice Quote sent to the founder so far.
    uint256 public feeFounder;
    /// @notice Quote credited to holders so far.
    uint256 public feeHolder;

    event FeeDispatched(
        uint256 amountFounder,
        uint256 amountHolder,
        uint256 amountBurn,
        uint256 amountLiquidity,
        uint256 quoteFounder,
        uint256 quoteHolder
    );
    event FeeClaimed(address account, uint256 amount);

    struct Config {
        uint256 feeRate;
        uint256 rateFounder;
        uint256 rateHolder;
        uint256 rateBurn;
        uint256 rateLiquidity;
        address founder;
        uint256 minShare;
    }

    constructor(
        string memory name_,
        string memory symbol_,
        address launchpad_,
        IUniswapV2Router02 router_,
        Config memory config
    ) ERC20(name_, symbol_) {
        require(
            config.rateFounder + config.rateHolder + config.rateBurn + config.rateLiquidity == 100,
            "Rates"
        );
        require(config.feeRate <= 1_000, "FeeRate");
        require(config.rateFounder == 0 || config.founder != address(0), "Founder");
        launchpad = launchpad_;
        router = router_;
        dexFactory = IUniswapV2Factory(router_.factory());
        quote = router_.WETH();
        founder = config.founder;
        feeRate = config.feeRate;
        rateFounder = config.rateFounder;
        rateHolder = config.rateHolder;
        rateBurn = config.rateBurn;
        rateLiquidity = config.rateLiquidity;
        minShare = config.minShare;
        minDispatch = BondingCurve.TOTAL_SUPPLY / 10_000;
        _mint(launchpad_, BondingCurve.TOTAL_SUPPLY);
    }

    receive() external payable {}

    function openDex() external {
        require(msg.sender == launchpad, "Launchpad");
        dexOpen = true;
    }

    /// @notice The token's DEX pair, once it exists.
    function pair() public view returns (address) {
        return _pair != address(0) ? _pair : dexFactory.getPair(address(this), quote);
    }

    /// @notice Quote `account` can claim now: stored plus accrued since its last update (§7).
    function claimableFee(address account) public view returns (uint256) {
        UserInfo storage user = userInfo[account];
        return user.claimable + (user.share * feePerShare) / PRECISION - user.rewardDebt;
    }

    function claimedFee(address account) external view returns (uint256) {
        return userInfo[account].claimed;
    }

    /// @notice Claims the sender's rewards, paid in the quote.
    function claimFee() external {
        _claim(msg.sender);
    }

    /// @notice Claims for each account, paid to that account (§7: anyone may call it).
    function claimFee(address[] calldata accounts) external {
        for (uint256 i = 0; i < accounts.length; i++) _claim(accounts[i]);
    }

    function _claim(address account) private {
        _accrue(account);
        UserInfo storage user = userInfo[account];
        uint256 amount = user.claimable;
        if (amount == 0) return;
        user.claimable = 0;
        user.claimed += amount;
        IWETH(quote).transfer(account, amount);
        emit FeeClaimed(account, amount);
    }

    function _update(address from, address to, uint256 value) internal override {
        address pair_ = _pair;
        if (pair_ == address(0)) {
            pair_ = dexFactory.getPair(address(this), quote);
            if (pair_ != address(0) && dexOpen) _pair = pair_;
        }
        if (!dexOpen) {
            if (to != launchpad && from != address(0)) require(to != pair_ || pair_ == address(0), "Pair");
            super._update(from, to, value);
        } else if (
            pair_ != address(0) &&
            (from == pair_ || to == pair_) &&
            !_dispatching &&
            from != address(this) &&
            from != launchpad &&
            to != address(this)
        ) {
            if (from != pair_ && feeAccumulated >= minDispatch) _dispatch();
            uint256 tax = (value * feeRate) / 10_000;
            if (tax > 0) {
                super._update(from, address(this), tax);
                feeAccumulated += tax;
            }
            super._update(from, to, value - tax);
        } else {
            super._update(from, to, value);
        }
        _setShare(from);
        _setShare(to);
    }

    /// @dev Splits what has gathered (§4 rates), burns and adds to liquidity, sells the
    /// founder's and holders' shares (and half the liquidity's) for BNB, wrapped to the quote.
    function _dispatch() private {
        _dispatching = true;
        uint256 total = feeAccumulated;
        uint256 amountFounder = (total * rateFounder) / 100;
        uint256 amountHolder = totalShares > 0 ? (total * rateHolder) / 100 : 0;
        uint256 amountBurn = (total * rateBurn) / 100;
        uint256 amountLiquidity = (total * rateLiquidity) / 100;
        if (amountBurn > 0) super._update(address(this), DEAD, amountBurn);
        uint256 liquidityHalf = amountLiquidity / 2;
        uint256 sold = amountFounder + amountHolder + liquidityHalf;
        uint256 quoteFounder;
        uint256 quoteHolder;
        uint256 spent = amountBurn;
        if (sold > 0) {
            _approve(address(this), address(router), sold + (amountLiquidity - liquidityHalf));
            uint256 before = address(this).balance;
            address[] memory path = new address[](2);
            path[0] = address(this);
            path[1] = quote;
            router.swapExactTokensForETHSupportingFeeOnTransferTokens(
                sold,
                0,
                path,
                address(this),
                block.timestamp
            );
            uint256 got = address(this).balance - before;
            quoteFounder = (got * amountFounder) / sold;
            quoteHolder = (got * amountHolder) / sold;
            uint256 quoteLiquidity = got - quoteFounder - quoteHolder;
            spent += sold;
            if (amountLiquidity - liquidityHalf > 0 && quoteLiquidity > 0) {
                uint256 beforeTokens = balanceOf(address(this));
                router.addLiquidityETH{value: quoteLiquidity}(
                    address(this),
                    amountLiquidity - liquidityHalf,
                    0,
                    0,
                    DEAD,
                    block.timestamp
                );
                spent += beforeTokens - balanceOf(address(this));
            }
            IWETH(quote).deposit{value: quoteFounder + quoteHolder}();
            if (quoteFounder > 0) {
                feeFounder += quoteFounder;
                IWETH(quote).transfer(founder, quoteFounder);
            }
            if (quoteHolder > 0) {
                feeHolder += quoteHolder;
                feePerShare += (quoteHolder * PRECISION) / totalShares;
            }
            _approve(address(this), address(router), 0);
        }
        feeDispatched += spent;
        feeAccumulated = balanceOf(address(this));
        _dispatching = false;
        emit FeeDispatched(amountFounder, amountHolder, amountBurn, amountLiquidity, quoteFounder, quoteHolder);
    }

    function _accrue(address account) private {
        UserInfo storage user = userInfo[account];
        uint256 accrued = (user.share * feePerShare) / PRECISION;
        user.claimable += accrued - user.rewardDebt;
        user.rewardDebt = accrued;
    }

    /// @dev §7: a holder's share is its balance when at least minShare; the pair, the
    /// launchpad, this contract and the dead address hold none.
    function _setShare(address account) private {
        if (
            account == address(0) ||
            account == address(this) ||
            account == launchpad ||
            account == DEAD ||
            account == _pair
        ) return;
        uint256 balance = balanceOf(account);
        uint256 share = balance >= minShare ? balance : 0;
        UserInfo storage user = userInfo[account];
        if (share == user.share) return;
        _accrue(account);
        totalShares = totalShares - user.share + share;
        user.share = share;
        user.rewardDebt = (share * feePerShare) / PRECISION;
    }
}

/// @notice Deploys the launchpad's tax tokens (CREATE2, salt the request id), so that
/// TaxToken's code is not inside LaunchpadManager's, which would then pass the 24 KB limit.
/// Created by the launchpad in its constructor; only it may deploy.
contract TaxTokenFactory {
    address public immutable launchpad;

    constructor() {
        launchpad = msg.sender;
    }

    function deploy(
        bytes32 salt,
        string calldata name_,
        string calldata symbol_,
        IUniswapV2Router02 router_,
        TaxToken.Config calldata config
    ) external returns (address) {
        require(msg.sender == launchpad, "Launchpad");
        return address(new TaxToken{salt: salt}(name_, symbol_, launchpad, router_, config));
    }
}
