/** The demo store's knowledge entries for the AI agent. */
export const DEMO_KNOWLEDGE = [
    { title: 'Store hours', content: 'Our stores are open Monday-Saturday 9AM-8PM and Sunday 10AM-6PM. Holiday hours are posted in store and on our site.' },
    { title: 'Earning points', content: 'Members earn 1 point per $1 spent, plus bonus points during promotions. Points appear on the account within 24 hours of purchase.' },
    { title: 'Returns', content: 'Unworn items can be returned within 30 days with a receipt. Points earned on returned items are removed from the account.' }
];
