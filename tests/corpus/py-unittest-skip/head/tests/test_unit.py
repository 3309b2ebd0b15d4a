import unittest


class TestCalc(unittest.TestCase):
    @unittest.skip('later')
    def test_add(self):
        self.assertEqual(1 + 1, 2)
