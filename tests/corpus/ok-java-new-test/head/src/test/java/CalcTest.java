import org.junit.jupiter.api.Test;

class CalcTest {
  @Test
  void adds() {
    assert 1 + 2 == 3;
  }

  @Test
  void negates() {
    assert -1 + 1 == 0;
  }
}
