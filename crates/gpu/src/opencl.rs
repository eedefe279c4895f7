//! The OpenCL launcher, through `opencl3`, which loads libOpenCL (the ICD loader) at run time:
//! a machine without it builds and runs, and asking for an OpenCL device there is an error
//! naming what to install. Every platform's devices are listed, GPUs and CPUs alike (pocl's CPU
//! device runs the kernel in the tests).

use std::ptr;

use opencl3::command_queue::CommandQueue;
use opencl3::context::Context;
use opencl3::device::{CL_DEVICE_TYPE_ALL, CL_DEVICE_TYPE_GPU, Device};
use opencl3::kernel::{ExecuteKernel, Kernel};
use opencl3::memory::{Buffer, CL_MEM_READ_ONLY, CL_MEM_READ_WRITE};
use opencl3::platform::get_platforms;
use opencl3::program::Program;
use opencl3::types::{CL_BLOCKING, cl_uchar, cl_uint, cl_ulong};

use crate::GpuError;
use crate::launcher::{self, DeviceInfo, Launcher, SOURCE};
use crate::tasks::{MAX_ROWS, Tables as HostTables, Task};

/// What to install for OpenCL, in the words of the error for a machine without it.
pub const INSTALL: &str = "install an OpenCL driver and the ICD loader (Debian: ocl-icd-libopencl1 with \
     pocl-opencl-icd for the CPU, nvidia-opencl-icd or mesa-opencl-icd for GPUs)";

/// Returns the [`GpuError::Driver`] of a call into OpenCL that failed doing `what`, with its
/// error: `what: error`.
fn failed<E: std::fmt::Display>(what: impl std::fmt::Display) -> impl FnOnce(E) -> GpuError {
    move |e| GpuError::Driver(format!("{what}: {e}"))
}

/// Held while platforms and devices are listed and opened: pocl 3.1 initialises its devices on
/// the first call and crashes when two threads make that call at once (two tests in one
/// process did, in `strlen` under `clGetDeviceInfo` while the other thread ran hwloc).
static INIT: std::sync::Mutex<()> = std::sync::Mutex::new(());

/// Returns every OpenCL device of every platform, in platform order, as `(info, device id)`.
///
/// # Errors
/// Why none can be listed: no libOpenCL, or no platform.
pub(crate) fn list() -> Result<Vec<(DeviceInfo, opencl3::types::cl_device_id)>, GpuError> {
    let _init = INIT.lock().unwrap_or_else(|e| e.into_inner());
    let platforms = get_platforms()
        .map_err(|e| GpuError::Unavailable(format!("no OpenCL runtime could be loaded ({e}): {INSTALL}")))?;
    if platforms.is_empty() {
        return Err(GpuError::Unavailable(format!("OpenCL is installed but has no platform: {INSTALL}")));
    }
    let mut out = Vec::new();
    for platform in platforms {
        let Ok(ids) = platform.get_devices(CL_DEVICE_TYPE_ALL) else { continue };
        let platform_name = platform.name().unwrap_or_default();
        for id in ids {
            let d = Device::new(id);
            let index = out.len();
            let gpu = d.dev_type().is_ok_and(|t| t & CL_DEVICE_TYPE_GPU != 0);
            let info = DeviceInfo {
                api: "opencl",
                index,
                name: d.name().unwrap_or_default().trim().to_string(),
                platform: platform_name.trim().to_string(),
                memory_bytes: d.global_mem_size().unwrap_or(0),
                compute_units: d.max_compute_units().unwrap_or(0),
                gpu,
            };
            out.push((info, id));
        }
    }
    Ok(out)
}

/// An OpenCL device ready to count: its context, queue, compiled kernels and buffers.
pub(crate) struct OpenCl {
    context: Context,
    queue: CommandQueue,
    device: Device,
    /// The kernels (count, classify) without and with NQ_NODES (the second program compiled
    /// when first asked for).
    kernels: [Option<[Kernel; 2]>; 2],
    tables: Option<Tables>,
    io: Option<Io>,
    /// Work items of one launch (the persistent threads).
    global: usize,
    local: usize,
    /// The tasks and the numbers per task of the launch in flight.
    launched: (usize, usize),
}

/// The constellation tables on the device.
struct Tables {
    table: Buffer<cl_uint>,
    rows: Buffer<cl_uchar>,
    stab: Buffer<cl_uchar>,
    full: cl_uint,
    n: cl_uint,
}

/// The task and result buffers, with room for `room` tasks.
struct Io {
    room: usize,
    cols: Buffer<cl_uint>,
    ld: Buffer<cl_uint>,
    rd: Buffer<cl_uint>,
    at: Buffer<cl_uint>,
    boards: Buffer<cl_uchar>,
    next: Buffer<cl_uint>,
    out: Buffer<cl_ulong>,
}

impl OpenCl {
    /// Opens device `id` (described by `info`): a context, a queue and the kernels compiled.
    pub(crate) fn open(info: &DeviceInfo, id: opencl3::types::cl_device_id) -> Result<OpenCl, GpuError> {
        let _init = INIT.lock().unwrap_or_else(|e| e.into_inner());
        let device = Device::new(id);
        let context = Context::from_device(&device).map_err(failed("cannot create a context"))?;
        #[allow(deprecated)] // clCreateCommandQueue: OpenCL 1.2 devices (pocl's) have only it.
        let queue = CommandQueue::create_default(&context, 0).map_err(failed("cannot create a queue"))?;
        let units = info.compute_units.max(1) as usize;
        // GPUs: about 1,024 resident threads per compute unit (NVIDIA SMs hold 2,048, AMD CUs
        // 2,560); a CPU device runs work items one after the other in each of its threads.
        let (per_unit, local) = if info.gpu { (1024, 128) } else { (64, 64) };
        let local = local.min(device.max_work_group_size().unwrap_or(local).max(1));
        let mut cl = OpenCl {
            context,
            queue,
            device,
            kernels: [None, None],
            tables: None,
            io: None,
            global: units * per_unit,
            local,
            launched: (0, 0),
        };
        cl.kernel(launcher::Kernel::Count, false)?;
        Ok(cl)
    }

    /// Returns the work items one launch runs at once.
    pub(crate) fn lanes(&self) -> usize {
        self.global
    }

    /// Returns `kernel`, counting placements if `nodes`, compiling its program on first use.
    fn kernel(&mut self, kernel: launcher::Kernel, nodes: bool) -> Result<&Kernel, GpuError> {
        let slot = usize::from(nodes);
        if self.kernels[slot].is_none() {
            // The work-group size the kernels' stacks are laid out for, and launched with.
            let options = format!(
                "-D NQ_WG={} -D MAX_DEPTH={}{}",
                self.local,
                crate::scheduler::stack_levels(),
                if nodes { " -D NQ_NODES" } else { "" }
            );
            let mut program = Program::create_from_source(&self.context, SOURCE)
                .map_err(|e| GpuError::Compile(format!("cannot create the program: {e}")))?;
            if let Err(e) = program.build(&[self.device.id()], &options) {
                let log = program.get_build_log(self.device.id()).unwrap_or_default();
                return Err(GpuError::Compile(format!(
                    "the kernel does not compile ({e}): {}",
                    log.trim().replace('\n', " | ")
                )));
            }
            let make = |k: launcher::Kernel| {
                Kernel::create(&program, k.name()).map_err(failed(format!("no kernel {}", k.name())))
            };
            self.kernels[slot] = Some([make(launcher::Kernel::Count)?, make(launcher::Kernel::Classify)?]);
        }
        let pair = self.kernels[slot].as_ref().expect("compiled above");
        Ok(&pair[usize::from(kernel == launcher::Kernel::Classify)])
    }

    /// Returns a buffer of `len` elements (at least 1) on this context.
    fn buffer<T>(&self, flags: u64, len: usize) -> Result<Buffer<T>, GpuError> {
        // SAFETY: no host pointer is passed (null, without CL_MEM_USE_HOST_PTR or
        // CL_MEM_COPY_HOST_PTR), so the buffer owns its memory.
        unsafe { Buffer::<T>::create(&self.context, flags, len.max(1), ptr::null_mut()) }
            .map_err(failed(format!("cannot allocate {len} elements on the device")))
    }

    /// Writes `data` into `buffer` and waits for the write.
    fn write<T>(&self, buffer: &mut Buffer<T>, data: &[T]) -> Result<(), GpuError> {
        if data.is_empty() {
            return Ok(());
        }
        // SAFETY: a blocking write of `data.len()` elements into a buffer of at least as many
        // (every buffer here is made for the data written to it); `data` outlives the call.
        unsafe { self.queue.enqueue_write_buffer(buffer, CL_BLOCKING, 0, data, &[]) }
            .map(|_| ())
            .map_err(failed("cannot write to the device"))
    }

    /// A buffer holding `data`.
    fn upload_one<T>(&self, data: &[T]) -> Result<Buffer<T>, GpuError> {
        let mut b = self.buffer::<T>(CL_MEM_READ_ONLY, data.len())?;
        self.write(&mut b, data)?;
        Ok(b)
    }
}

impl Launcher for OpenCl {
    fn upload(&mut self, tables: &HostTables) -> Result<(), GpuError> {
        self.tables = Some(Tables {
            table: self.upload_one(&tables.table)?,
            rows: self.upload_one(&tables.rows)?,
            stab: self.upload_one(&tables.stab)?,
            full: tables.full,
            n: tables.n,
        });
        Ok(())
    }

    fn start(
        &mut self,
        kernel: launcher::Kernel,
        tasks: &[Task],
        boards: &[u8],
        nodes: bool,
    ) -> Result<(), GpuError> {
        self.kernel(kernel, nodes)?;
        let (len, width) = (tasks.len(), kernel.width());
        if self.io.as_ref().is_none_or(|io| io.room < len) {
            let room = len.next_power_of_two();
            self.io = Some(Io {
                room,
                cols: self.buffer(CL_MEM_READ_ONLY, room)?,
                ld: self.buffer(CL_MEM_READ_ONLY, room)?,
                rd: self.buffer(CL_MEM_READ_ONLY, room)?,
                at: self.buffer(CL_MEM_READ_ONLY, room)?,
                boards: self.buffer(CL_MEM_READ_ONLY, room * MAX_ROWS)?,
                next: self.buffer(CL_MEM_READ_WRITE, 1)?,
                out: self.buffer(CL_MEM_READ_WRITE, room * 5)?,
            });
        }
        let columns = |f: fn(&Task) -> u32| tasks.iter().map(f).collect::<Vec<cl_uint>>();
        let mut io = self.io.take().expect("made above");
        let written = (|| {
            self.write(&mut io.cols, &columns(|t| t.cols))?;
            self.write(&mut io.ld, &columns(|t| t.ld))?;
            self.write(&mut io.rd, &columns(|t| t.rd))?;
            self.write(&mut io.at, &columns(|t| t.at))?;
            self.write(&mut io.boards, boards)?;
            self.write(&mut io.next, &[0])
        })();
        self.io = Some(io);
        written?;
        let (global, local) = (self.global.min(len.next_multiple_of(self.local)), self.local);
        let t = self.tables.as_ref().ok_or_else(|| GpuError::Driver("no tables uploaded".into()))?;
        let io = self.io.as_ref().expect("kept above");
        let count = len as cl_uint;
        let pair = self.kernels[usize::from(nodes)]
            .as_ref()
            .ok_or_else(|| GpuError::Driver("the kernel was not compiled".into()))?;
        let k = &pair[usize::from(kernel == launcher::Kernel::Classify)];
        // SAFETY: the arguments are NQ_ARGS of kernel.cl, in order and of its types (buffers of
        // cl_uint, cl_uchar and cl_ulong, three cl_uint values); the local size is the NQ_WG
        // the kernels were compiled with (their stacks hold NQ_WG lanes); every buffer holds at least
        // `count` tasks (`out` 5 numbers a task, `boards` MAX_ROWS bytes a task) or the whole
        // tables, as the kernels read and write them.
        unsafe {
            ExecuteKernel::new(k)
                .set_arg(&io.cols)
                .set_arg(&io.ld)
                .set_arg(&io.rd)
                .set_arg(&io.at)
                .set_arg(&count)
                .set_arg(&t.table)
                .set_arg(&t.rows)
                .set_arg(&t.stab)
                .set_arg(&t.full)
                .set_arg(&t.n)
                .set_arg(&io.boards)
                .set_arg(&io.next)
                .set_arg(&io.out)
                .set_global_work_size(global)
                .set_local_work_size(local)
                .enqueue_nd_range(&self.queue)
        }
        .map_err(failed("cannot launch the kernel"))?;
        self.queue.flush().map_err(failed("cannot start the kernel"))?;
        self.launched = (len, width);
        Ok(())
    }

    fn finish(&mut self, out: &mut Vec<u64>) -> Result<(), GpuError> {
        let (len, width) = self.launched;
        out.clear();
        out.resize(len * width, 0);
        let io = self.io.as_ref().ok_or_else(|| GpuError::Driver("nothing was launched".into()))?;
        if len > 0 {
            // SAFETY: a blocking read of `len * width` numbers from a buffer of at least
            // `len * 5`, into a vector of exactly that many; the queue is in order, so it
            // follows the kernel.
            unsafe { self.queue.enqueue_read_buffer(&io.out, CL_BLOCKING, 0, out, &[]) }
                .map_err(failed("the kernel failed or its results cannot be read"))?;
        }
        self.launched = (0, 0);
        Ok(())
    }
}
