import { expect } from 'chai';
import { addressKey, tooManyLoginsMessage, waitText } from '../../plugins/auth/throttle';

describe('the login throttle\'s helpers', () => {
    it('says how long to wait in whole seconds under a minute and in whole minutes, rounded up, from a minute on', () => {
        const cases: [number, string][] = [
            [0, '1 second'], [1, '1 second'], [1.2, '2 seconds'], [59, '59 seconds'], [60, '1 minute'], [61, '2 minutes'],
            [840, '14 minutes'], [899, '15 minutes'], [900, '15 minutes'], [3600, '60 minutes']
        ];
        for (const [seconds, text] of cases) {
            expect(waitText(seconds), `${seconds} s`).to.equal(text);
        }
        expect(tooManyLoginsMessage(840)).to.equal('Too many failed login attempts. Please try again in 14 minutes.');
    });

    it('counts IPv4 addresses as they are, IPv4-mapped IPv6 as IPv4, and IPv6 per /64 network', () => {
        const cases: [string, string][] = [
            ['10.1.2.3', '10.1.2.3'],
            ['::ffff:10.1.2.3', '10.1.2.3'],
            ['::FFFF:7f00:1', '127.0.0.1'],
            ['2001:db8:1:2:3:4:5:6', '2001:db8:1:2::/64'],
            ['2001:DB8:1:2::9', '2001:db8:1:2::/64'],
            ['2001:0db8:0001:0002:ffff:ffff:ffff:ffff', '2001:db8:1:2::/64'],
            ['2001:db8::1', '2001:db8:0:0::/64'],
            ['::1', '0:0:0:0::/64'],
            ['fe80::1%eth0', 'fe80:0:0:0::/64'],
            ['64:ff9b::10.1.2.3', '64:ff9b:0:0::/64']
        ];
        for (const [address, key] of cases) {
            expect(addressKey(address), address).to.equal(key);
        }
        expect(addressKey('2001:db8:1:2::1')).to.not.equal(addressKey('2001:db8:1:3::1'));
    });
});
