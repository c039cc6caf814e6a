/** The demo tenant created by `loyalty-chat seed --demo` and by the first `serve` on an empty database. */
export const DEMO_ORG = { name: 'Demo Store', domain: 'localhost', subdomain: 'demo', subscriptionPlan: 'pro', storeName: 'Demo Store' };

/** Fixed demo logins outside production (shown in the super-admin demo box); random ones in production. */
export const DEMO_USERS = [
    { email: 'super@demo.local', password: 'superadmin-demo', role: 'super_admin' as const, name: 'Demo Super Admin' },
    { email: 'admin@demo.local', password: 'admin-demo-2024', role: 'admin' as const, name: 'Demo Agent' },
    { email: 'org@demo.local', password: 'org-demo-2024', role: 'org_user' as const, name: 'Demo Owner' }
];

/** Demo loyalty customers (phones are US numbers in E.164). */
export const DEMO_CUSTOMERS = [
    { phone: '+15555550100', name: 'Alex Rivera', email: 'alex@example.com', loyaltyId: 'LC-1001', points: 1250,
        orders: [{ productName: 'Trail Running Shoes', quantity: 1, price: 129.99, daysAgo: 3 },
            { productName: 'Wool Socks (3 pack)', quantity: 2, price: 18.5, daysAgo: 3 },
            { productName: 'Rain Jacket', quantity: 1, price: 89, daysAgo: 40 }] },
    { phone: '+15555550101', name: 'Sam Chen', email: 'sam@example.com', loyaltyId: 'LC-1002', points: 320,
        orders: [{ productName: 'Canvas Tote', quantity: 1, price: 24, daysAgo: 10 }] },
    { phone: '+15555550102', name: 'Jordan Lee', email: 'jordan@example.com', loyaltyId: 'LC-1003', points: 0, orders: [] }
];

/** The five default questions of SPEC §9, with the FAQ content of SPEC §9. */
export const DEFAULT_QUESTIONS = [
    { question: 'Check my loyalty points', answer: 'Sure! Please enter the phone number linked to your loyalty account and I will text you a 6-digit code (for example 123456) to verify it.' },
    { question: 'How do I redeem points in store?', answer: 'Tell the cashier your phone number at checkout and choose how many points to apply. Every 100 points take $5 off your purchase.' },
    { question: 'Talk to live support', answer: 'I can connect you with a member of our team. One moment while I check who is available.' },
    { question: 'What are your store hours?', answer: 'We are open Monday-Saturday 9AM-8PM and Sunday 10AM-6PM.' },
    { question: 'How do I earn points?', answer: 'You earn 1 point for every $1 spent, plus bonus points during promotions.' }
];

export const DEMO_KNOWLEDGE = [
    { title: 'Store hours', content: 'Our stores are open Monday-Saturday 9AM-8PM and Sunday 10AM-6PM. Holiday hours are posted in store and on our site.' },
    { title: 'Earning points', content: 'Members earn 1 point per $1 spent, plus bonus points during promotions. Points appear on the account within 24 hours of purchase.' },
    { title: 'Returns', content: 'Unworn items can be returned within 30 days with a receipt. Points earned on returned items are removed from the account.' }
];
