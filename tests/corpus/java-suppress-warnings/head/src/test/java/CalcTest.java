import org.junit.jupiter.api.Test;

class CalcTest {
  @SuppressWarnings("unchecked")
  @Test
  void adds() {
    assert 1 + 2 == 3;
  }
}
