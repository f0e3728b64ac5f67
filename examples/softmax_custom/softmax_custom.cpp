// y = softmax(x) over each row of an fp32 matrix: the reduction kernel of the examples. Each core
// takes its rows; per row: copy in, ReduceMax, subtract the max, Exp, ReduceSum, scale by 1/sum,
// copy out, through double-buffered queues. The scalar reads each reduction's result after an
// explicit V->S flag.
#include "kernel_operator.h"

constexpr int32_t ROWS = 64;
constexpr int32_t COLS = 1024;
constexpr int32_t USE_CORE_NUM = 8;
constexpr int32_t ROWS_PER_CORE = ROWS / USE_CORE_NUM;
constexpr int32_t BUFFER_NUM = 2;

class KernelSoftmax {
 public:
  __aicore__ inline void Init(GM_ADDR x, GM_ADDR y) {
    xGm.SetGlobalBuffer((__gm__ float*)x + ROWS_PER_CORE * COLS * AscendC::GetBlockIdx(),
                        ROWS_PER_CORE * COLS);
    yGm.SetGlobalBuffer((__gm__ float*)y + ROWS_PER_CORE * COLS * AscendC::GetBlockIdx(),
                        ROWS_PER_CORE * COLS);
    pipe.InitBuffer(inQueue, BUFFER_NUM, COLS * sizeof(float));
    pipe.InitBuffer(outQueue, BUFFER_NUM, COLS * sizeof(float));
    pipe.InitBuffer(workBuf, COLS * sizeof(float));
    pipe.InitBuffer(reduceBuf, 32);
  }
  __aicore__ inline void Process() {
    for (int32_t row = 0; row < ROWS_PER_CORE; row++) {
      CopyIn(row);
      Compute();
      CopyOut(row);
    }
  }

 private:
  __aicore__ inline void CopyIn(int32_t row) {
    AscendC::LocalTensor<float> x = inQueue.AllocTensor<float>();
    AscendC::DataCopy(x, xGm[row * COLS], COLS);
    inQueue.EnQue(x);
  }
  // Waits until the vector pipe is done with what it has, then returns reduceBuf[0].
  __aicore__ inline float ReadReduced() {
    AscendC::TEventID e = AscendC::GetTPipePtr()->FetchEventID(AscendC::HardEvent::V_S);
    AscendC::SetFlag<AscendC::HardEvent::V_S>(e);
    AscendC::WaitFlag<AscendC::HardEvent::V_S>(e);
    return reduceBuf.Get<float>().GetValue(0);
  }
  __aicore__ inline void Compute() {
    AscendC::LocalTensor<float> x = inQueue.DeQue<float>();
    AscendC::LocalTensor<float> y = outQueue.AllocTensor<float>();
    AscendC::LocalTensor<float> work = workBuf.Get<float>();
    AscendC::LocalTensor<float> red = reduceBuf.Get<float>();
    AscendC::ReduceMax(red, x, work, COLS);
    float rowMax = ReadReduced();
    AscendC::Adds(y, x, -rowMax, COLS);
    AscendC::Exp(y, y, COLS);
    AscendC::ReduceSum(red, y, work, COLS);
    float rowSum = ReadReduced();
    AscendC::Muls(y, y, 1.0f / rowSum, COLS);
    outQueue.EnQue(y);
    inQueue.FreeTensor(x);
  }
  __aicore__ inline void CopyOut(int32_t row) {
    AscendC::LocalTensor<float> y = outQueue.DeQue<float>();
    AscendC::DataCopy(yGm[row * COLS], y, COLS);
    outQueue.FreeTensor(y);
  }

  AscendC::TPipe pipe;
  AscendC::TQue<AscendC::TPosition::VECIN, BUFFER_NUM> inQueue;
  AscendC::TQue<AscendC::TPosition::VECOUT, BUFFER_NUM> outQueue;
  AscendC::TBuf<AscendC::TPosition::VECCALC> workBuf, reduceBuf;
  AscendC::GlobalTensor<float> xGm, yGm;
};

extern "C" __global__ __aicore__ void softmax_custom(GM_ADDR x, GM_ADDR y) {
  KernelSoftmax op;
  op.Init(x, y);
  op.Process();
}
