/** Integration tests share nothing global yet; each file opens its own database and chain. */
export default function setup(): void {}
