import org.junit.jupiter.api.Test;

class CalcTest {
  @Test
  void adds() {
    assert 1 + 2 == 3;
  }
}
