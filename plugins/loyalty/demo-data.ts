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
