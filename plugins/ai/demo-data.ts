/**
 * The demo store's knowledge entries for the AI agent (its current promotion is one of them, as SPEC §2's
 * tier 1 says). The evaluation set (test/fixtures/ai-eval.json) asks about these and the default questions.
 */
export const DEMO_KNOWLEDGE = [
    { title: 'Store hours', content: 'Our stores are open Monday-Saturday 9AM-8PM and Sunday 10AM-6PM. Holiday hours are posted in store and on our site.' },
    { title: 'Earning points', content: 'Members earn 1 point per $1 spent, plus bonus points during promotions. Points appear on the account within 24 hours of purchase.' },
    { title: 'Returns', content: 'Unworn items can be returned within 30 days with a receipt. Points earned on returned items are removed from the account.' },
    { title: 'Shipping and delivery', content: 'Online orders ship within 2 business days. Standard delivery takes 3-5 business days and is free on orders over $50; express delivery takes 1-2 days for $12.' },
    { title: 'Current promotions', content: 'This month: double points on all jackets and 20% off selected sneakers. Promotions cannot be combined with other discount codes.' },
    { title: 'Points expiration', content: 'Points expire 12 months after the last purchase on the account. Any purchase keeps all of your points active for another 12 months.' },
    { title: 'Joining the loyalty program', content: 'Joining is free: sign up at the register or on our site with your phone number. New members get 100 welcome points after their first purchase.' },
    { title: 'Birthday reward', content: 'Members get a $10 birthday reward in their birthday month. Add your birthday to your profile at least 30 days before to receive it.' },
    { title: 'Buy online, pick up in store', content: 'Choose in-store pickup at checkout; your order is ready within 2 hours and held for 5 days. Bring your order confirmation and an ID.' },
    { title: 'Payment methods', content: 'We accept Visa, Mastercard, American Express, Apple Pay, Google Pay and cash in store. Online orders can also be paid with PayPal.' },
    { title: 'Price match', content: 'If you find a lower price for the same item at a local competitor within 14 days of purchase, we refund the difference.' },
    { title: 'Order tracking', content: 'A tracking link is emailed when your order ships. Use the order number in that email to track the parcel on the carrier site.' }
];
